-- Migration 0013: who asked to be told when a table opens on a server (/notify new_tables:on).
-- Reason: issue 44, item 3 (players wanted). Unlike /notify how: (migration 0012, one choice for
--         every server), this choice is per server and per user, so it has its own rows: a row
--         means "on", no row "off". since: when they asked, so the longest-waiting are named first
--         when more than a message may mention have asked.
-- Date: 2026-12-07

CREATE TABLE new_table_watchers (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    since    INTEGER NOT NULL,  -- milliseconds since the epoch
    PRIMARY KEY (guild_id, user_id)
) STRICT;
