"""``/notify``: how each player is told that a decision is theirs (a player's own settings)."""
