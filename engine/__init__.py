"""Game engines: pure rules (one package per game) and the async session layer."""
