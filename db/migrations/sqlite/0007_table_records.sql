-- Migration 0007: what a table records beside its action log.
-- Reason: issue 13. A seat can change hands mid-game (a player resigns and a bot plays on) and a
--         timeout is part of the game's story: both must survive a restart and a replay, so they
--         are kept as seat events at the version they happened. Each game's log is posted in
--         batches (to a thread) and the position reached must survive a restart, so nothing is
--         posted twice or dropped. A message whose controls were closed must not be closed again
--         after every restart (that would cost Discord edits), so messages carry an open flag.
--         (The server settings of /settings live in guild_settings, migration 0006.)
-- Date: 2026-12-03

-- Seat events: 'timeout' (the game's default played for an absent player from this version on)
-- and 'resign' (a human handed the seat to a bot; detail {"level": ...}). Ordered by version, then
-- by the order they were written (rowid).
CREATE TABLE seat_events (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    version    INTEGER NOT NULL CHECK (version >= 0),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    kind       TEXT    NOT NULL CHECK (kind IN ('timeout', 'resign')),
    detail     TEXT    NOT NULL DEFAULT '{}'
               CHECK (CASE WHEN json_valid(detail) THEN json_type(detail) = 'object' ELSE 0 END),
    created_at INTEGER NOT NULL
) STRICT;

-- A timeout recorded twice (a crash between the note and the actions it explains) is one event.
CREATE UNIQUE INDEX seat_events_once ON seat_events (game_id, version, seat, kind);

CREATE TRIGGER seat_events_check BEFORE INSERT ON seat_events
BEGIN
    SELECT RAISE(ABORT, 'game_not_playing')
    WHERE (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'playing';
    SELECT RAISE(ABORT, 'no_such_seat')
    WHERE NOT EXISTS (SELECT 1 FROM seats WHERE game_id = NEW.game_id AND seat = NEW.seat);
    -- Only a person can resign, and only once.
    SELECT RAISE(ABORT, 'not_a_person')
    WHERE NEW.kind = 'resign'
      AND (SELECT user_id FROM seats WHERE game_id = NEW.game_id AND seat = NEW.seat) IS NULL;
    SELECT RAISE(ABORT, 'already_resigned')
    WHERE NEW.kind = 'resign'
      AND EXISTS (SELECT 1 FROM seat_events WHERE game_id = NEW.game_id AND seat = NEW.seat
                  AND kind = 'resign');
END;

CREATE TRIGGER seat_events_no_update BEFORE UPDATE ON seat_events
BEGIN
    SELECT RAISE(ABORT, 'seat_events_append_only');
END;

CREATE TRIGGER seat_events_no_delete BEFORE DELETE ON seat_events
BEGIN
    SELECT RAISE(ABORT, 'seat_events_append_only');
END;

-- How far the game's log has been posted: every action before `actions_written` and the first
-- `notes_written` seat events. thread_id NULL: the log goes to the table's channel.
CREATE TABLE game_story (
    game_id         INTEGER PRIMARY KEY REFERENCES games (id),
    thread_id       INTEGER,
    actions_written INTEGER NOT NULL DEFAULT 0 CHECK (actions_written >= 0),
    notes_written   INTEGER NOT NULL DEFAULT 0 CHECK (notes_written >= 0),
    updated_at      INTEGER NOT NULL
) STRICT;

-- 1: the message still carries controls that act on its game (closed messages are 0; a summary's
-- Rematch button does not count).
ALTER TABLE messages ADD COLUMN open INTEGER NOT NULL DEFAULT 0 CHECK (open IN (0, 1));

-- Start-up closes the controls of games that ended while the bot was down.
CREATE INDEX messages_open ON messages (game_id) WHERE open = 1;
