-- Migration 0011: a seat played by a bot while its person is away (issue 41, absence).
-- Reason: in a correspondence table a seat whose person let N decisions in a row time out is
--         played by the table's bot level until they come back; both moments are seat events
--         ('away' with detail {"level": ..., "at": ...}, 'back' with {"at": ...}), so the takeover
--         survives a restart and the standings can say for how long a bot played the seat.
--         SQLite cannot change a column's CHECK in place: the table is rebuilt with its rows,
--         index and triggers (nothing references seat_events).
-- Date: 2026-12-07

CREATE TABLE seat_events_0011 (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    version    INTEGER NOT NULL CHECK (version >= 0),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    kind       TEXT    NOT NULL CHECK (kind IN ('timeout', 'resign', 'away', 'back')),
    detail     TEXT    NOT NULL DEFAULT '{}'
               CHECK (CASE WHEN json_valid(detail) THEN json_type(detail) = 'object' ELSE 0 END),
    created_at INTEGER NOT NULL
) STRICT;

INSERT INTO seat_events_0011 (id, game_id, version, seat, kind, detail, created_at)
SELECT id, game_id, version, seat, kind, detail, created_at FROM seat_events;

DROP TABLE seat_events;

ALTER TABLE seat_events_0011 RENAME TO seat_events;

-- A timeout recorded twice (a crash between the note and the actions it explains) is one event.
CREATE UNIQUE INDEX seat_events_once ON seat_events (game_id, version, seat, kind);

CREATE TRIGGER seat_events_check BEFORE INSERT ON seat_events
BEGIN
    SELECT RAISE(ABORT, 'game_not_playing')
    WHERE (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'playing';
    SELECT RAISE(ABORT, 'no_such_seat')
    WHERE NOT EXISTS (SELECT 1 FROM seats WHERE game_id = NEW.game_id AND seat = NEW.seat);
    -- Only a person can resign, or be away, and resign only once.
    SELECT RAISE(ABORT, 'not_a_person')
    WHERE NEW.kind IN ('resign', 'away', 'back')
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
