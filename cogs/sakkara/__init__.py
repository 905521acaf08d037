"""Sakkara on Discord, in the files every game has: the ``/sakkara`` commands (``cog.py``), the drawing of a
table (``render.py``), the controls a player acts with (``controls.py``), the game's words (``words.py``)
and its end (``summary.py``). Its pictures are in ``pictures/sakkara/``."""
