"""Leaderboards, stats and game history on Discord (``/leaderboard``, ``/stats``, ``/history``, ``/game log``)."""
