"""``/tables``: a server's running tables, with links; a server manager can end one."""
