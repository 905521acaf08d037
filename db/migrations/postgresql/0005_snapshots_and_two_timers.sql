-- Migration 0005 (PostgreSQL): state snapshots, and appends that arm up to two timers, as
-- sqlite/0005_snapshots_and_two_timers.sql.
-- Reason: issues 16 and 17 (tables loaded on demand from a snapshot and a short tail; the bots'
--         turn stored as a timer beside the humans' timeout).
-- Date: 2026-12-03

CREATE TABLE snapshots (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id),
    version  BIGINT NOT NULL CHECK (version >= 0),
    opened   BIGINT NOT NULL CHECK (opened BETWEEN 0 AND version),
    state    TEXT   NOT NULL,
    saved_at BIGINT NOT NULL
);

DROP TRIGGER action_appends_insert ON action_appends;
DROP VIEW action_appends;

CREATE VIEW action_appends (game_id, seq, seat, payload, created_at, deadline_kind, deadline_due,
                            deadline_version, deadline2_kind, deadline2_due, deadline2_version) AS
SELECT game_id, seq, seat, payload, created_at, NULL::text, NULL::bigint, NULL::bigint, NULL::text, NULL::bigint,
       NULL::bigint FROM actions;

CREATE OR REPLACE FUNCTION action_appends_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO actions (game_id, seq, seat, payload, created_at)
    VALUES (NEW.game_id, NEW.seq, NEW.seat, NEW.payload, NEW.created_at);
    IF NEW.deadline_kind IS NOT NULL THEN
        INSERT INTO deadlines (game_id, kind, due_at, version)
        VALUES (NEW.game_id, NEW.deadline_kind, NEW.deadline_due, NEW.deadline_version)
        ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at, version = excluded.version;
    END IF;
    IF NEW.deadline2_kind IS NOT NULL THEN
        INSERT INTO deadlines (game_id, kind, due_at, version)
        VALUES (NEW.game_id, NEW.deadline2_kind, NEW.deadline2_due, NEW.deadline2_version)
        ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at, version = excluded.version;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER action_appends_insert INSTEAD OF INSERT ON action_appends
FOR EACH ROW EXECUTE FUNCTION action_appends_insert();

-- Which process runs which tables' timers (issue 16): a lease per bucket of tables (id % buckets),
-- held by one process until it expires; processes renew theirs and take over expired ones.
CREATE TABLE timer_leases (
    bucket     INTEGER PRIMARY KEY CHECK (bucket >= 0),
    owner      TEXT    NOT NULL,
    expires_at BIGINT  NOT NULL
);

-- Every write to a table tells the other processes (LISTEN table_changed): the payload is its id.
-- (PostgreSQL sends one notification per distinct payload and transaction, at commit.)
CREATE FUNCTION notify_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'games' THEN
        PERFORM pg_notify('table_changed', NEW.id::text);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('table_changed', OLD.game_id::text);
    ELSE
        PERFORM pg_notify('table_changed', NEW.game_id::text);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER games_changed AFTER INSERT OR UPDATE ON games FOR EACH ROW EXECUTE FUNCTION notify_table_changed();
CREATE TRIGGER seats_changed AFTER INSERT OR UPDATE OR DELETE ON seats
FOR EACH ROW EXECUTE FUNCTION notify_table_changed();
CREATE TRIGGER deadlines_changed AFTER INSERT OR UPDATE OR DELETE ON deadlines
FOR EACH ROW EXECUTE FUNCTION notify_table_changed();
