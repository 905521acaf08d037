-- Migration 0012: each player's own settings, the same on every server.
-- Reason: issue 41. A player chooses how the bot tells them a decision is theirs (/notify how:
--         dm, mention or off), once for all servers, and the choice outlives a restart: one row
--         per user, a column per setting (issue 44 adds the next one), NULL meaning "the
--         default". (/games finds a user's tables through seats_by_user, migration 0002.)
-- Date: 2026-12-07

CREATE TABLE player_settings (
    user_id    INTEGER PRIMARY KEY,
    notify     TEXT CHECK (notify IS NULL OR notify IN ('dm', 'mention', 'off')),
    updated_at INTEGER NOT NULL  -- milliseconds since the epoch
) STRICT;
