"""The chaos harness: the real bot in forked processes, killed at random, checked against what it acknowledged.

Test support for tests/chaos and bench/chaos.py, kept out of fakediscord/ because it runs the bot
(``python -m tests.chaos.harness.zygote`` imports it) and reads the bot's schema with raw SQL; the
fake Discord stays free of the bot. Modules: ``kills`` (the run: processes, kills, restarts, the
report), ``players`` (people playing through what Discord shows them), ``verdict`` (the database
checked against the acknowledged moves) and ``zygote`` (the warm parent that forks bot processes).

Nothing is re-exported here: ``python -m tests.chaos.harness.zygote`` imports this package first,
and a package that imported its own ``zygote`` would run it twice.
"""
