-- Migration 0004 (PostgreSQL): the Discord language each player last used on each server, as
-- sqlite/0004_player_locales.sql.
-- Reason: issue 14 (a DM sent without an interaction is written in the player's language).
-- Date: 2026-12-03

CREATE TABLE player_locales (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    locale     TEXT   NOT NULL CHECK (length(locale) BETWEEN 2 AND 16),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
