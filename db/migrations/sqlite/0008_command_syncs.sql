-- Migration 0008: the slash commands this bot last synced to Discord, per scope.
-- Reason: issue 15 (item 7). Syncing at every start costs rate-limited calls and nothing: the bot
--         keeps a hash of the payload it synced per scope ('global', or 'guild:<id>' with
--         DEV_GUILD_ID) and syncs again only when the command tree changed, or when asked
--         (python bot.py --sync).
-- Date: 2026-12-03

CREATE TABLE command_syncs (
    scope        TEXT    NOT NULL PRIMARY KEY CHECK (scope = 'global' OR scope GLOB 'guild:[0-9]*'),
    payload_hash TEXT    NOT NULL CHECK (length(payload_hash) = 64),
    synced_at    INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
