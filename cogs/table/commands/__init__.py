"""The slash commands every game shares: the base cog of ``/<game>``, their translation and their sync."""
