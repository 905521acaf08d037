"""What every game shares on Discord: ``messages/`` (the hub and what it draws through),
``controls/`` (buttons, lobby, resignation, the interaction gate), ``commands/`` (the base cog of
``/<game>``), how a click is answered (``answer.py``) and the session's listener (``listener.py``)."""
