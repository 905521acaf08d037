"""Incan Gold / Diamant on Discord: the ``/incan`` commands and the drawing of a table."""
