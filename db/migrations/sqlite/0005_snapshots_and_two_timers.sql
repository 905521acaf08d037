-- Migration 0005: state snapshots, and appends that arm up to two timers.
-- Reason: issues 16 and 17. Tables are loaded on demand (a restart loads none of them), so a load
--         must be short: `snapshots` caches a table's state every few dozen actions and a load
--         replays only the actions after it. An AI turn becomes a stored timer ('auto') like the
--         decision timer, so a restart or another process knows of it without loading the table;
--         an append may arm both at once (a new Incan Gold card: the humans' timeout and the bots'
--         turn), so `action_appends` takes a second timer.
-- Date: 2026-12-03
--
-- A snapshot is a cache: GAME.dumps(state) after `version` actions and the decision window open
-- then. It may be missing or behind; it is never ahead of the log.

CREATE TABLE snapshots (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id),
    version  INTEGER NOT NULL CHECK (version >= 0),
    opened   INTEGER NOT NULL CHECK (opened BETWEEN 0 AND version),  -- the decision window (its version)
    state    TEXT    NOT NULL,
    saved_at INTEGER NOT NULL
) STRICT;

DROP TRIGGER action_appends_insert;
DROP VIEW action_appends;

CREATE VIEW action_appends (
    game_id, seq, seat, payload, created_at, deadline_kind, deadline_due, deadline_version,
    deadline2_kind, deadline2_due, deadline2_version
) AS
SELECT game_id, seq, seat, payload, created_at, NULL, NULL, NULL, NULL, NULL, NULL FROM actions;

CREATE TRIGGER action_appends_insert INSTEAD OF INSERT ON action_appends
BEGIN
    INSERT INTO actions (game_id, seq, seat, payload, created_at)
    VALUES (NEW.game_id, NEW.seq, NEW.seat, NEW.payload, NEW.created_at);
    -- WHERE also settles the parser's INSERT ... SELECT ... ON CONFLICT ambiguity.
    INSERT INTO deadlines (game_id, kind, due_at, version)
    SELECT NEW.game_id, NEW.deadline_kind, NEW.deadline_due, NEW.deadline_version
    WHERE NEW.deadline_kind IS NOT NULL
    ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at, version = excluded.version;
    INSERT INTO deadlines (game_id, kind, due_at, version)
    SELECT NEW.game_id, NEW.deadline2_kind, NEW.deadline2_due, NEW.deadline2_version
    WHERE NEW.deadline2_kind IS NOT NULL
    ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at, version = excluded.version;
END;

-- Tables playing before this migration get one 'auto' timer, due now: at the first start after the
-- upgrade each is looked at once (an AI turn that was pending, a result not yet written).
INSERT INTO deadlines (game_id, kind, due_at, version)
SELECT id, 'auto', CAST(strftime('%s', 'now') AS INTEGER) * 1000, version FROM games WHERE status = 'playing'
ON CONFLICT (game_id, kind) DO NOTHING;
