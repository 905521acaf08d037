"""``/games``: every running table a player sits at, on every server."""
