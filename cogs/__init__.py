"""Discord cogs: thin adapters from slash commands and buttons to the session layer."""
