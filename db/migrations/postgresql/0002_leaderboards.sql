-- Migration 0002 (PostgreSQL): leaderboard totals, day buckets and the rating cache, as
-- sqlite/0002_leaderboards.sql.
-- Reason: issue 7 (leaderboards < 50 ms at 100,000 games on a server), on PostgreSQL too (issue 16).
--         The totals are kept by a trigger in the very transaction that finishes a game.
-- Date: 2026-12-03
--
-- A player is (user_id, ai_level) with sentinels instead of NULLs: a human is (user id, ''), an AI
-- level is (0, level). No backfill: a PostgreSQL database starts empty (db/copy.py brings history).

CREATE TABLE player_totals (
    guild_id   BIGINT NOT NULL,
    game       TEXT   NOT NULL,
    user_id    BIGINT NOT NULL,
    ai_level   TEXT   NOT NULL,
    name       TEXT   NOT NULL,
    games      BIGINT NOT NULL CHECK (games >= 1),
    wins       BIGINT NOT NULL CHECK (wins BETWEEN 0 AND games),
    score_sum  BIGINT NOT NULL,
    best_score BIGINT NOT NULL,
    last_at    BIGINT NOT NULL,
    PRIMARY KEY (guild_id, game, user_id, ai_level),
    CHECK ((user_id = 0) <> (ai_level = ''))
);

CREATE TABLE player_days (
    guild_id   BIGINT NOT NULL,
    day        BIGINT NOT NULL,
    game       TEXT   NOT NULL,
    user_id    BIGINT NOT NULL,
    ai_level   TEXT   NOT NULL,
    games      BIGINT NOT NULL CHECK (games >= 1),
    wins       BIGINT NOT NULL CHECK (wins BETWEEN 0 AND games),
    score_sum  BIGINT NOT NULL,
    best_score BIGINT NOT NULL,
    PRIMARY KEY (guild_id, day, game, user_id, ai_level)
);

CREATE INDEX player_days_by_game ON player_days (guild_id, game, day);

CREATE TABLE preset_totals (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    game     TEXT   NOT NULL,
    preset   TEXT   NOT NULL,
    games    BIGINT NOT NULL CHECK (games >= 1),
    last_at  BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id, game, preset)
);

CREATE TABLE ai_records (
    guild_id   BIGINT NOT NULL,
    game       TEXT   NOT NULL,
    user_id    BIGINT NOT NULL,
    ai_level   TEXT   NOT NULL,
    games      BIGINT NOT NULL CHECK (games >= 1),
    ahead      BIGINT NOT NULL,
    behind     BIGINT NOT NULL,
    level_with BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id, game, ai_level)
);

CREATE TABLE rating_marks (
    guild_id    BIGINT NOT NULL,
    game        TEXT   NOT NULL,
    finished_at BIGINT NOT NULL,
    game_id     BIGINT NOT NULL,
    PRIMARY KEY (guild_id, game)
);

CREATE TABLE ratings (
    guild_id BIGINT           NOT NULL,
    game     TEXT             NOT NULL,
    user_id  BIGINT           NOT NULL,
    ai_level TEXT             NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    ordinal  DOUBLE PRECISION NOT NULL,
    games    BIGINT           NOT NULL CHECK (games >= 1),
    PRIMARY KEY (guild_id, game, user_id, ai_level)
);

CREATE INDEX ratings_rank ON ratings (guild_id, game, ordinal DESC);

CREATE TABLE rating_history (
    guild_id    BIGINT           NOT NULL,
    game        TEXT             NOT NULL,
    user_id     BIGINT           NOT NULL,
    ai_level    TEXT             NOT NULL,
    finished_at BIGINT           NOT NULL,
    game_id     BIGINT           NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, user_id, ai_level, finished_at, game_id)
);

CREATE FUNCTION games_finished_feed_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Grouped first: PostgreSQL's upsert may not touch a row twice in one statement, and several AI
    -- seats of one level count as several games of that level (as in SQLite, where each seat's row
    -- is folded in turn; the name kept is the last seat's).
    INSERT INTO player_totals AS t (guild_id, game, user_id, ai_level, name, games, wins, score_sum, best_score,
                                    last_at)
    SELECT NEW.guild_id, NEW.game, coalesce(r.user_id, 0), coalesce(r.ai_level, ''),
           (array_agg(s.display_name ORDER BY r.seat DESC))[1], count(*), sum(r.is_winner), sum(r.score),
           max(r.score), NEW.finished_at
    FROM results AS r JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
    WHERE r.game_id = NEW.id
    GROUP BY coalesce(r.user_id, 0), coalesce(r.ai_level, '')
    ON CONFLICT (guild_id, game, user_id, ai_level) DO UPDATE SET
        name       = CASE WHEN excluded.last_at >= t.last_at THEN excluded.name ELSE t.name END,
        games      = t.games + excluded.games,
        wins       = t.wins + excluded.wins,
        score_sum  = t.score_sum + excluded.score_sum,
        best_score = greatest(t.best_score, excluded.best_score),
        last_at    = greatest(t.last_at, excluded.last_at);

    INSERT INTO player_days AS d (guild_id, day, game, user_id, ai_level, games, wins, score_sum, best_score)
    SELECT NEW.guild_id, NEW.finished_at / 86400000, NEW.game, coalesce(r.user_id, 0), coalesce(r.ai_level, ''),
           count(*), sum(r.is_winner), sum(r.score), max(r.score)
    FROM results AS r
    WHERE r.game_id = NEW.id
    GROUP BY coalesce(r.user_id, 0), coalesce(r.ai_level, '')
    ON CONFLICT (guild_id, day, game, user_id, ai_level) DO UPDATE SET
        games      = d.games + excluded.games,
        wins       = d.wins + excluded.wins,
        score_sum  = d.score_sum + excluded.score_sum,
        best_score = greatest(d.best_score, excluded.best_score);

    INSERT INTO preset_totals AS p (guild_id, user_id, game, preset, games, last_at)
    SELECT NEW.guild_id, r.user_id, NEW.game, coalesce(NEW.preset, ''), 1, NEW.finished_at
    FROM results AS r
    WHERE r.game_id = NEW.id AND r.user_id IS NOT NULL
    ON CONFLICT (guild_id, user_id, game, preset) DO UPDATE SET
        games   = p.games + 1,
        last_at = greatest(p.last_at, excluded.last_at);

    INSERT INTO ai_records AS a (guild_id, game, user_id, ai_level, games, ahead, behind, level_with)
    SELECT NEW.guild_id, NEW.game, u.user_id, o.ai_level, 1, sum((u.placement < o.placement)::int),
           sum((u.placement > o.placement)::int), sum((u.placement = o.placement)::int)
    FROM results AS u JOIN results AS o ON o.game_id = u.game_id AND o.ai_level IS NOT NULL
    WHERE u.game_id = NEW.id AND u.user_id IS NOT NULL
    GROUP BY u.user_id, o.ai_level
    ON CONFLICT (guild_id, user_id, game, ai_level) DO UPDATE SET
        games      = a.games + 1,
        ahead      = a.ahead + excluded.ahead,
        behind     = a.behind + excluded.behind,
        level_with = a.level_with + excluded.level_with;

    DELETE FROM rating_marks
    WHERE guild_id = NEW.guild_id AND game = NEW.game
      AND (finished_at > NEW.finished_at OR (finished_at = NEW.finished_at AND game_id > NEW.id));
    RETURN NULL;
END $$;

CREATE TRIGGER games_finished_feed_totals AFTER UPDATE OF status ON games
FOR EACH ROW WHEN (NEW.status = 'finished' AND OLD.status <> 'finished')
EXECUTE FUNCTION games_finished_feed_totals();

CREATE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;
