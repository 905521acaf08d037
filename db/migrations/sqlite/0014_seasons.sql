-- Migration 0014: quarterly seasons' frozen tables and which season ends were announced.
-- Reason: issue 44, item 2 (seasons). A past season's ratings must never change, also when the
--         rating rules change later: at a season's end its final table (the fold of that season's
--         games) is stored once, and read from here ever after. season_closings has one row per
--         server and season: the table was frozen (closed_at), and the champions were posted
--         (posted_at, set before the post is sent: at most one post, also across restarts).
-- Date: 2026-12-07

CREATE TABLE season_closings (
    guild_id  INTEGER NOT NULL,
    season    TEXT    NOT NULL,  -- "2026-Q4"
    closed_at INTEGER NOT NULL,  -- milliseconds since the epoch
    posted_at INTEGER,           -- NULL: the champions were not announced (yet)
    PRIMARY KEY (guild_id, season)
) STRICT;

CREATE TABLE season_ratings (
    guild_id INTEGER NOT NULL,
    season   TEXT    NOT NULL,
    game     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,  -- 0 for an AI level
    ai_level TEXT    NOT NULL,  -- '' for a person
    rank     INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    ordinal  REAL    NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, game, user_id, ai_level)
) STRICT;

CREATE INDEX season_ratings_by_player ON season_ratings (guild_id, user_id, ai_level);
