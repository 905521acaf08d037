"""The controls every game shares: the move buttons and menus, the lobby's buttons, the resignation's
confirmation, and the gate every interaction passes (claimed, turned away while shutting down)."""
