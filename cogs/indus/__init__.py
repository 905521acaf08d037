"""Indus on Discord: the ``/indus`` commands, the drawing of a table and the board picture."""
