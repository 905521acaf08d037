"""Indus's pictures: the board, the final board, and the one naming of squares and start spaces."""
