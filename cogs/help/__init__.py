"""``/help`` and the answer to an @mention: the games, their commands, how a turn works, the bot levels."""
