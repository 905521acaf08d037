-- Migration 0009 (PostgreSQL): users whose direct messages are closed to the bot, as sqlite/0009_closed_dms.sql.
-- Reason: issue 17. A DM to such a user answers 403, which Discord counts toward banning the bot's
--         address; the bot stops trying them until they interact again, and remembers it across a
--         restart and across the processes sharing one token.
-- Date: 2026-12-03

CREATE TABLE closed_dms (
    user_id   BIGINT PRIMARY KEY,
    closed_at BIGINT NOT NULL  -- milliseconds since the epoch: when a DM last answered 403
);
