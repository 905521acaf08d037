-- Migration 0002: leaderboard totals, day buckets and the rating cache.
-- Reason: issue 7 (leaderboards, stats, history) must answer in < 50 ms with 100,000 games on a
--         server; aggregating `results` per request cannot. The totals are kept by a trigger in
--         the very transaction that finishes a game, so they can never disagree with `results`
--         (the truth); the rating tables are a cache the bot refills from `results`.
-- Date: 2026-12-02
--
-- A player is (user_id, ai_level) with sentinels instead of NULLs so they can be keys: a human is
-- (Discord user id, ''), an AI level is (0, level). Discord never issues the id 0.

-- All-time totals per server, game type and player.
CREATE TABLE player_totals (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    ai_level   TEXT    NOT NULL,
    -- the name the player had at their latest game (shown after they leave the server)
    name       TEXT    NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 1),
    wins       INTEGER NOT NULL CHECK (wins BETWEEN 0 AND games),
    score_sum  INTEGER NOT NULL,
    best_score INTEGER NOT NULL,
    last_at    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, user_id, ai_level),
    CHECK ((user_id = 0) <> (ai_level = ''))
) STRICT, WITHOUT ROWID;

-- The same per UTC day (finished_at / 86,400,000), for "last 30 days" rankings.
CREATE TABLE player_days (
    guild_id   INTEGER NOT NULL,
    day        INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    ai_level   TEXT    NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 1),
    wins       INTEGER NOT NULL CHECK (wins BETWEEN 0 AND games),
    score_sum  INTEGER NOT NULL,
    best_score INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day, game, user_id, ai_level)
) STRICT, WITHOUT ROWID;

-- One game type's period (the 30-day rating board) is one tight range here instead of every
-- game type's buckets of the period.
CREATE INDEX player_days_by_game ON player_days (guild_id, game, day);

-- How often each person played each setup (favourite preset in /stats).
CREATE TABLE preset_totals (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    preset   TEXT    NOT NULL,  -- '' when the game was set up without a preset
    games    INTEGER NOT NULL CHECK (games >= 1),
    last_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, game, preset)
) STRICT, WITHOUT ROWID;

-- Each person's record against each AI level: games shared, and how many AI seats of that level
-- they finished ahead of, behind, or level with.
CREATE TABLE ai_records (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    ai_level   TEXT    NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 1),
    ahead      INTEGER NOT NULL,
    behind     INTEGER NOT NULL,
    level_with INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, game, ai_level)
) STRICT, WITHOUT ROWID;

-- The rating cache (engine/ratings.py computes; this only stores). `rating_marks` is the last game
-- folded in per server and game type, in (finished_at, id) order; no mark means "recompute".
CREATE TABLE rating_marks (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    finished_at INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game)
) STRICT, WITHOUT ROWID;

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    ai_level TEXT    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL CHECK (sigma > 0),
    ordinal  REAL    NOT NULL,
    games    INTEGER NOT NULL CHECK (games >= 1),
    PRIMARY KEY (guild_id, game, user_id, ai_level)
) STRICT, WITHOUT ROWID;

CREATE INDEX ratings_rank ON ratings (guild_id, game, ordinal DESC);

-- Each player's rating after each rated game (the trend in /stats).
CREATE TABLE rating_history (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    ai_level    TEXT    NOT NULL,
    finished_at INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id, ai_level, finished_at, game_id)
) STRICT, WITHOUT ROWID;

-- Both are fed when a game becomes finished: its results and seats are written by then (the store
-- inserts the results before flipping the status, in one transaction). Several AI seats of one
-- level in a game count as several games of that level, as each seat played.
CREATE TRIGGER games_finished_feed_totals AFTER UPDATE OF status ON games
WHEN NEW.status = 'finished' AND OLD.status <> 'finished'
BEGIN
    INSERT INTO player_totals (guild_id, game, user_id, ai_level, name, games, wins, score_sum, best_score,
                               last_at)
    SELECT NEW.guild_id, NEW.game, ifnull(r.user_id, 0), ifnull(r.ai_level, ''), s.display_name, 1,
           r.is_winner, r.score, r.score, NEW.finished_at
    FROM results AS r JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
    WHERE r.game_id = NEW.id
    ORDER BY r.seat
    ON CONFLICT (guild_id, game, user_id, ai_level) DO UPDATE SET
        name       = CASE WHEN excluded.last_at >= last_at THEN excluded.name ELSE name END,
        games      = games + 1,
        wins       = wins + excluded.wins,
        score_sum  = score_sum + excluded.score_sum,
        best_score = max(best_score, excluded.best_score),
        last_at    = max(last_at, excluded.last_at);

    INSERT INTO player_days (guild_id, day, game, user_id, ai_level, games, wins, score_sum, best_score)
    SELECT NEW.guild_id, NEW.finished_at / 86400000, NEW.game, ifnull(r.user_id, 0), ifnull(r.ai_level, ''), 1,
           r.is_winner, r.score, r.score
    FROM results AS r
    WHERE r.game_id = NEW.id
    ORDER BY r.seat
    ON CONFLICT (guild_id, day, game, user_id, ai_level) DO UPDATE SET
        games      = games + 1,
        wins       = wins + excluded.wins,
        score_sum  = score_sum + excluded.score_sum,
        best_score = max(best_score, excluded.best_score);

    INSERT INTO preset_totals (guild_id, user_id, game, preset, games, last_at)
    SELECT NEW.guild_id, r.user_id, NEW.game, ifnull(NEW.preset, ''), 1, NEW.finished_at
    FROM results AS r
    WHERE r.game_id = NEW.id AND r.user_id IS NOT NULL
    ON CONFLICT (guild_id, user_id, game, preset) DO UPDATE SET
        games   = games + 1,
        last_at = max(last_at, excluded.last_at);

    INSERT INTO ai_records (guild_id, game, user_id, ai_level, games, ahead, behind, level_with)
    SELECT NEW.guild_id, NEW.game, u.user_id, a.ai_level, 1, sum(u.placement < a.placement),
           sum(u.placement > a.placement), sum(u.placement = a.placement)
    FROM results AS u JOIN results AS a ON a.game_id = u.game_id AND a.ai_level IS NOT NULL
    WHERE u.game_id = NEW.id AND u.user_id IS NOT NULL
    GROUP BY u.user_id, a.ai_level
    ON CONFLICT (guild_id, user_id, game, ai_level) DO UPDATE SET
        games      = games + 1,
        ahead      = ahead + excluded.ahead,
        behind     = behind + excluded.behind,
        level_with = level_with + excluded.level_with;

    -- A game that finishes "before" the rating cache's high-water mark (a back-dated finish)
    -- invalidates that cache: the next read recomputes the ratings from scratch, in order.
    DELETE FROM rating_marks
    WHERE guild_id = NEW.guild_id AND game = NEW.game
      AND (finished_at > NEW.finished_at OR (finished_at = NEW.finished_at AND game_id > NEW.id));
END;

-- Backfill from the games finished before this migration.
INSERT INTO player_totals (guild_id, game, user_id, ai_level, name, games, wins, score_sum, best_score, last_at)
SELECT g.guild_id, g.game, ifnull(r.user_id, 0), ifnull(r.ai_level, ''),
       (SELECT s2.display_name FROM results AS r2
          JOIN games AS g2 ON g2.id = r2.game_id
          JOIN seats AS s2 ON s2.game_id = r2.game_id AND s2.seat = r2.seat
         WHERE g2.status = 'finished' AND g2.guild_id = g.guild_id AND g2.game = g.game
           AND r2.user_id IS r.user_id AND r2.ai_level IS r.ai_level
         ORDER BY g2.finished_at DESC, g2.id DESC LIMIT 1),
       count(*), sum(r.is_winner), sum(r.score), max(r.score), max(g.finished_at)
FROM results AS r JOIN games AS g ON g.id = r.game_id
WHERE g.status = 'finished'
GROUP BY g.guild_id, g.game, r.user_id, r.ai_level;

INSERT INTO player_days (guild_id, day, game, user_id, ai_level, games, wins, score_sum, best_score)
SELECT g.guild_id, g.finished_at / 86400000, g.game, ifnull(r.user_id, 0), ifnull(r.ai_level, ''),
       count(*), sum(r.is_winner), sum(r.score), max(r.score)
FROM results AS r JOIN games AS g ON g.id = r.game_id
WHERE g.status = 'finished'
GROUP BY g.guild_id, g.finished_at / 86400000, g.game, r.user_id, r.ai_level;

INSERT INTO preset_totals (guild_id, user_id, game, preset, games, last_at)
SELECT g.guild_id, r.user_id, g.game, ifnull(g.preset, ''), count(*), max(g.finished_at)
FROM results AS r JOIN games AS g ON g.id = r.game_id
WHERE g.status = 'finished' AND r.user_id IS NOT NULL
GROUP BY g.guild_id, r.user_id, g.game, ifnull(g.preset, '');

INSERT INTO ai_records (guild_id, game, user_id, ai_level, games, ahead, behind, level_with)
SELECT g.guild_id, g.game, u.user_id, a.ai_level, count(DISTINCT u.game_id), sum(u.placement < a.placement),
       sum(u.placement > a.placement), sum(u.placement = a.placement)
FROM results AS u JOIN games AS g ON g.id = u.game_id
JOIN results AS a ON a.game_id = u.game_id AND a.ai_level IS NOT NULL
WHERE g.status = 'finished' AND u.user_id IS NOT NULL
GROUP BY g.guild_id, g.game, u.user_id, a.ai_level;

-- /history lists a user's started games on one server, finished or not: seats by user.
CREATE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;
