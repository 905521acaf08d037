"""Incan Gold's picture: the results chart (each explorer's total after every expedition)."""
