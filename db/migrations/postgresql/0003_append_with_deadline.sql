-- Migration 0003 (PostgreSQL): append actions and re-arm the decision deadline in one statement,
-- as sqlite/0003_append_with_deadline.sql (the view is replaced by 0005's, with two timers).
-- Reason: one round trip and one commit per append.
-- Date: 2026-12-03

CREATE VIEW action_appends (game_id, seq, seat, payload, created_at, deadline_kind, deadline_due,
                            deadline_version) AS
SELECT game_id, seq, seat, payload, created_at, NULL::text, NULL::bigint, NULL::bigint FROM actions;

CREATE FUNCTION action_appends_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO actions (game_id, seq, seat, payload, created_at)
    VALUES (NEW.game_id, NEW.seq, NEW.seat, NEW.payload, NEW.created_at);
    IF NEW.deadline_kind IS NOT NULL THEN
        INSERT INTO deadlines (game_id, kind, due_at, version)
        VALUES (NEW.game_id, NEW.deadline_kind, NEW.deadline_due, NEW.deadline_version)
        ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at, version = excluded.version;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER action_appends_insert INSTEAD OF INSERT ON action_appends
FOR EACH ROW EXECUTE FUNCTION action_appends_insert();
