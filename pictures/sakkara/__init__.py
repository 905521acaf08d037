"""Sakkara's pictures: the board, a player's rack, the tile motifs and the final board."""
