-- Migration 0006: per-server settings.
-- Reason: issue 14 (and 13). A server's managers choose the language of the bot's public messages
--         with /settings language; issue 13's /settings (decision time, bot delay, threads) keeps
--         its keys in the same table. One row per (server, key); the value is JSON.
-- Date: 2026-12-03

CREATE TABLE guild_settings (
    guild_id   INTEGER NOT NULL,
    key        TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 32),
    value      TEXT    NOT NULL CHECK (json_valid(value)),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, key)
) STRICT, WITHOUT ROWID;
