"""Research beside the benchmarks: the AI players under trial, per game (``EXPERIMENTS``).

Not installed and never imported by the bot: the lobby's levels live in ``engine/<game>/ai/``.
The benchmark scripts import this package as ``research`` (they run with bench/ on the path),
the tests as ``bench.research``.
"""
