-- Migration 0008 (PostgreSQL): the slash commands this bot last synced, as sqlite/0008_command_syncs.sql.
-- Reason: issue 15 (item 7). The bot syncs a scope ('global', or 'guild:<id>' with DEV_GUILD_ID)
--         only when the hash of its command payload changed, or when asked (python bot.py --sync).
-- Date: 2026-12-03

CREATE TABLE command_syncs (
    scope        TEXT   NOT NULL PRIMARY KEY CHECK (scope = 'global' OR scope ~ '^guild:[0-9]+$'),
    payload_hash TEXT   NOT NULL CHECK (length(payload_hash) = 64),
    synced_at    BIGINT NOT NULL
);
