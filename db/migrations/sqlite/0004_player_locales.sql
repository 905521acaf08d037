-- Migration 0004: the Discord language each player last used on each server.
-- Reason: issue 14. A DM sent without an interaction (a prompt, a nudge, a reminder) is written
--         in the language the player last used on the table's server; after a restart the bot
--         must still know it. One row per (server, player), replaced when the locale changes.
-- Date: 2026-12-03

CREATE TABLE player_locales (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    locale     TEXT    NOT NULL CHECK (length(locale) BETWEEN 2 AND 16),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) STRICT, WITHOUT ROWID;
