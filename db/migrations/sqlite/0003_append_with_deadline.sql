-- Migration 0003: append actions and re-arm the decision deadline in one statement.
-- Reason: under load every statement is a round trip to aiosqlite's thread that waits for an
--         event-loop iteration; a card cost an append plus a separate set_deadline (its own lock
--         turn and commit). Inserting into this view does both in ONE statement, hence atomically
--         even in autocommit mode: the timer can never be re-armed for actions that were refused.
-- Date: 2026-12-02
--
-- Reading the view gives the log with NULL deadline columns; only its INSERT matters. The actions go
-- through `actions` itself, so every check of 0001 (game_not_playing, stale_version, no_such_seat,
-- the version bump) still applies with the same messages. A row with a deadline_kind also upserts
-- that timer of the game, after its action was accepted (a refused row aborts the whole statement).

CREATE VIEW action_appends (
    game_id, seq, seat, payload, created_at, deadline_kind, deadline_due, deadline_version
) AS
SELECT game_id, seq, seat, payload, created_at, NULL, NULL, NULL FROM actions;

CREATE TRIGGER action_appends_insert INSTEAD OF INSERT ON action_appends
BEGIN
    INSERT INTO actions (game_id, seq, seat, payload, created_at)
    VALUES (NEW.game_id, NEW.seq, NEW.seat, NEW.payload, NEW.created_at);
    -- WHERE also settles the parser's INSERT ... SELECT ... ON CONFLICT ambiguity.
    INSERT INTO deadlines (game_id, kind, due_at, version)
    SELECT NEW.game_id, NEW.deadline_kind, NEW.deadline_due, NEW.deadline_version
    WHERE NEW.deadline_kind IS NOT NULL
    ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at, version = excluded.version;
END;
