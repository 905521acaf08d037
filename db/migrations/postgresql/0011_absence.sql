-- Migration 0011 (PostgreSQL): a seat played by a bot while its person is away, as sqlite/0011_absence.sql.
-- Reason: issue 41 (absence). 'away' and 'back' seat events say from when to when a bot played a
--         person's seat; only a person's seat can be away.
-- Date: 2026-12-07

ALTER TABLE seat_events DROP CONSTRAINT seat_events_kind_check;

ALTER TABLE seat_events ADD CONSTRAINT seat_events_kind_check
    CHECK (kind IN ('timeout', 'resign', 'away', 'back'));

CREATE OR REPLACE FUNCTION seat_events_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT status FROM games WHERE id = NEW.game_id) IS DISTINCT FROM 'playing' THEN
        RAISE EXCEPTION 'game_not_playing';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM seats WHERE game_id = NEW.game_id AND seat = NEW.seat) THEN
        RAISE EXCEPTION 'no_such_seat';
    END IF;
    -- Only a person can resign, or be away, and resign only once.
    IF NEW.kind IN ('resign', 'away', 'back')
       AND (SELECT user_id FROM seats WHERE game_id = NEW.game_id AND seat = NEW.seat) IS NULL THEN
        RAISE EXCEPTION 'not_a_person';
    END IF;
    IF NEW.kind = 'resign'
       AND EXISTS (SELECT 1 FROM seat_events WHERE game_id = NEW.game_id AND seat = NEW.seat
                   AND kind = 'resign') THEN
        RAISE EXCEPTION 'already_resigned';
    END IF;
    RETURN NEW;
END $$;
