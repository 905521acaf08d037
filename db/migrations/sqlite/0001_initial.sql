-- Migration 0001: initial event-sourced schema.
-- Reason: game tables (lobby and play), seats, the append-only action log, the bot's message ids,
--         decision deadlines and results for the leaderboards (issues 5 and 7).
-- Date: 2026-12-02
--
-- Conventions: times are INTEGER milliseconds since the Unix epoch (UTC); JSON columns hold compact
-- JSON text written by db/store.py; games are never deleted (the log is the audit trail). Invariants
-- the code relies on are enforced here too, so a bug or a hand edit cannot break them silently.

-- The game types a table may be of. A lookup table instead of a CHECK, so adding a game later is an
-- INSERT in a migration rather than a rebuild of `games`.
CREATE TABLE game_kinds (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;

INSERT INTO game_kinds (name) VALUES ('incan_gold'), ('sakkara'), ('indus');

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    game          TEXT    NOT NULL REFERENCES game_kinds (name),
    preset        TEXT,
    -- engine options passed to GAME.setup; a JSON object
    options       TEXT    NOT NULL DEFAULT '{}'
                  CHECK (CASE WHEN json_valid(options) THEN json_type(options) = 'object' ELSE 0 END),
    -- table (lobby) options: timeouts, AI delay...; a JSON object
    table_options TEXT    NOT NULL DEFAULT '{}'
                  CHECK (CASE WHEN json_valid(table_options) THEN json_type(table_options) = 'object'
                         ELSE 0 END),
    seed          INTEGER,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    host_id       INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'abandoned')),
    -- number of accepted actions == next action's seq; maintained by the actions triggers below
    version       INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    created_at    INTEGER NOT NULL,
    started_at    INTEGER,
    -- when the game ended, whatever the ending (finished, cancelled, abandoned)
    finished_at   INTEGER,
    duration_ms   INTEGER GENERATED ALWAYS AS (finished_at - started_at) VIRTUAL,
    CHECK (status IN ('lobby', 'cancelled', 'abandoned') OR (seed IS NOT NULL AND started_at IS NOT NULL)),
    CHECK ((status IN ('lobby', 'playing')) = (finished_at IS NULL))
) STRICT;

-- One game per channel: at most one table in the lobby or playing.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status IN ('lobby', 'playing');
-- Recovery at start-up reads every unfinished game.
CREATE INDEX games_unfinished ON games (status) WHERE status IN ('lobby', 'playing');
-- Leaderboards: a server's finished games of one type, by time (queries must say status = 'finished').
CREATE INDEX games_finished_by_guild ON games (guild_id, game, finished_at) WHERE status = 'finished';

-- The only status changes a table goes through.
CREATE TRIGGER games_status_transition BEFORE UPDATE OF status ON games
WHEN NOT (
    OLD.status = NEW.status
    OR (OLD.status = 'lobby' AND NEW.status IN ('playing', 'cancelled', 'abandoned'))
    OR (OLD.status = 'playing' AND NEW.status IN ('finished', 'cancelled', 'abandoned'))
)
BEGIN
    SELECT RAISE(ABORT, 'bad_status_transition');
END;

-- Seats: in the lobby, one row per member in join order (kept contiguous from 0); start_game replaces
-- them with the final seating. Frozen once the game leaves the lobby.
CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER,
    ai_level     TEXT CHECK (ai_level IS NULL OR length(ai_level) BETWEEN 1 AND 32),
    display_name TEXT NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) <> (ai_level IS NULL))
) STRICT, WITHOUT ROWID;

CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

CREATE TRIGGER seats_frozen_insert BEFORE INSERT ON seats
WHEN (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'lobby'
BEGIN
    SELECT RAISE(ABORT, 'seats_frozen');
END;

CREATE TRIGGER seats_frozen_update BEFORE UPDATE ON seats
WHEN (SELECT status FROM games WHERE id = OLD.game_id) IS NOT 'lobby'
BEGIN
    SELECT RAISE(ABORT, 'seats_frozen');
END;

CREATE TRIGGER seats_frozen_delete BEFORE DELETE ON seats
WHEN (SELECT status FROM games WHERE id = OLD.game_id) IS NOT 'lobby'
BEGIN
    SELECT RAISE(ABORT, 'seats_frozen');
END;

-- The append-only action log; seat -1 is chance. State = replay(seed, actions ordered by seq).
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    seat       INTEGER NOT NULL CHECK (seat >= -1),
    payload    TEXT    NOT NULL CHECK (json_valid(payload)),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

-- An action is accepted only while playing, only at seq == games.version (so a stale or duplicate
-- append fails however it is written) and only from a real seat or chance.
CREATE TRIGGER actions_check BEFORE INSERT ON actions
BEGIN
    SELECT RAISE(ABORT, 'game_not_playing')
    WHERE (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'playing';
    SELECT RAISE(ABORT, 'stale_version')
    WHERE NEW.seq IS NOT (SELECT version FROM games WHERE id = NEW.game_id);
    SELECT RAISE(ABORT, 'no_such_seat')
    WHERE NEW.seat <> -1
      AND NOT EXISTS (SELECT 1 FROM seats WHERE game_id = NEW.game_id AND seat = NEW.seat);
END;

CREATE TRIGGER actions_bump_version AFTER INSERT ON actions
BEGIN
    UPDATE games SET version = version + 1 WHERE id = NEW.game_id;
END;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions_append_only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions_append_only');
END;

-- The bot's own messages (lobby, round, summary, a seat's DM), so it can edit them after a restart.
-- One row per (game, kind, seat); kind is free text chosen by the bot; seat NULL = a channel message.
CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 32),
    seat       INTEGER CHECK (seat IS NULL OR seat >= 0),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX messages_slot ON messages (game_id, kind, ifnull(seat, -1));

-- Armed timers (decision timeout, reminder, lobby expiry...), so they can be re-armed after a restart.
-- version: the game version the deadline belongs to (NULL: any); a deadline whose version is behind
-- the game's is stale. Deleted when the game ends.
CREATE TABLE deadlines (
    game_id INTEGER NOT NULL REFERENCES games (id),
    kind    TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 32),
    due_at  INTEGER NOT NULL,
    version INTEGER CHECK (version IS NULL OR version >= 0),
    PRIMARY KEY (game_id, kind)
) STRICT, WITHOUT ROWID;

-- Final standings, written in the transaction that marks the game finished. user_id / ai_level are
-- copied from the seat so the leaderboards never need the seats table.
CREATE TABLE results (
    game_id   INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    user_id   INTEGER,
    ai_level  TEXT,
    score     INTEGER NOT NULL,
    placement INTEGER NOT NULL CHECK (placement >= 1),
    is_winner INTEGER NOT NULL CHECK (is_winner IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat),
    CHECK ((user_id IS NULL) <> (ai_level IS NULL))
) STRICT, WITHOUT ROWID;

-- Personal stats and history: a user's results, newest game last.
CREATE INDEX results_by_user ON results (user_id, game_id) WHERE user_id IS NOT NULL;
-- Ratings of the AI levels.
CREATE INDEX results_by_ai ON results (ai_level, game_id) WHERE ai_level IS NOT NULL;

CREATE TRIGGER results_only_when_finishing BEFORE INSERT ON results
WHEN (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'playing'
BEGIN
    SELECT RAISE(ABORT, 'game_not_playing');
END;

CREATE TRIGGER results_no_update BEFORE UPDATE ON results
BEGIN
    SELECT RAISE(ABORT, 'results_final');
END;

CREATE TRIGGER results_no_delete BEFORE DELETE ON results
BEGIN
    SELECT RAISE(ABORT, 'results_final');
END;
