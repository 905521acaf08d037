"""Sakkara on Discord: the ``/sakkara`` commands, the drawing of a table and the board picture."""
