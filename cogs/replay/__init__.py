"""``/game replay`` and the summaries' Replay button: a finished game replayed step by step."""
