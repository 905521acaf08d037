"""Storage: aiosqlite repository and numbered SQL migrations; all SQL lives here."""
