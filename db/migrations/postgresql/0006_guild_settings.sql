-- Migration 0006 (PostgreSQL): per-server settings, as sqlite/0006_guild_settings.sql.
-- Reason: issues 14 and 13 (/settings: the language of public messages, and the table defaults).
-- Date: 2026-12-03

CREATE TABLE guild_settings (
    guild_id   BIGINT NOT NULL,
    key        TEXT   NOT NULL CHECK (length(key) BETWEEN 1 AND 32),
    value      TEXT   NOT NULL CHECK (value::json IS NOT NULL),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, key)
);
