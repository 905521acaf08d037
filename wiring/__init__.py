"""The wiring the composition root (``bot.py``) puts together, none of it Discord-facing: the
configuration (:mod:`wiring.config`), the storage adapter that binds the session's Repository to
``db.Store`` (:mod:`wiring.storage`) and which process runs which table's timers
(:mod:`wiring.coordination`)."""
