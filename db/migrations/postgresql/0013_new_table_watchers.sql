-- Migration 0013 (PostgreSQL): who asked to be told when a table opens on a server, as
-- sqlite/0013_new_table_watchers.sql.
-- Reason: issue 44, item 3. /notify new_tables: is per server and per user, outlives a restart and
--         is shared by the processes on one token.
-- Date: 2026-12-07

CREATE TABLE new_table_watchers (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    since    BIGINT NOT NULL,  -- milliseconds since the epoch
    PRIMARY KEY (guild_id, user_id)
);
