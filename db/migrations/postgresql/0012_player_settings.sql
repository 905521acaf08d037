-- Migration 0012 (PostgreSQL): each player's own settings, as sqlite/0012_player_settings.sql.
-- Reason: issue 41. /notify's choice is kept once per user for all servers, outlives a restart
--         and is shared by the processes on one token.
-- Date: 2026-12-07

CREATE TABLE player_settings (
    user_id    BIGINT PRIMARY KEY,
    notify     TEXT CHECK (notify IS NULL OR notify IN ('dm', 'mention', 'off')),
    updated_at BIGINT NOT NULL  -- milliseconds since the epoch
);
