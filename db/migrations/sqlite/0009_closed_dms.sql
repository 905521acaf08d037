-- Migration 0009: users whose direct messages are closed to the bot.
-- Reason: issue 17. A DM to a user who closed theirs answers 403, and Discord bans a bot's address
--         for a while after 10,000 answers of 401/403/429 in 10 minutes; the bot stops trying
--         such a user until they interact again. Kept here so that a restart (or another process
--         on the same token) does not pay one 403 per such user to learn it again. One row per
--         user, deleted when the bot tries them again.
-- Date: 2026-12-03

CREATE TABLE closed_dms (
    user_id   INTEGER PRIMARY KEY,
    closed_at INTEGER NOT NULL  -- milliseconds since the epoch: when a DM last answered 403
) STRICT;
