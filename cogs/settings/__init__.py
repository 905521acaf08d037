"""``/settings``: a server's settings, for its managers."""
