-- Migration 0014 (PostgreSQL): quarterly seasons' frozen tables and announced season ends, as
-- sqlite/0014_seasons.sql.
-- Reason: issue 44, item 2. A past season's ratings never change: its final table is stored once
--         at its end; one row per server and season says it was frozen and announced.
-- Date: 2026-12-07

CREATE TABLE season_closings (
    guild_id  BIGINT NOT NULL,
    season    TEXT   NOT NULL,
    closed_at BIGINT NOT NULL,
    posted_at BIGINT,
    PRIMARY KEY (guild_id, season)
);

CREATE TABLE season_ratings (
    guild_id BIGINT           NOT NULL,
    season   TEXT             NOT NULL,
    game     TEXT             NOT NULL,
    user_id  BIGINT           NOT NULL,
    ai_level TEXT             NOT NULL,
    rank     INTEGER          NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    ordinal  DOUBLE PRECISION NOT NULL,
    games    INTEGER          NOT NULL,
    wins     INTEGER          NOT NULL,
    PRIMARY KEY (guild_id, season, game, user_id, ai_level)
);

CREATE INDEX season_ratings_by_player ON season_ratings (guild_id, user_id, ai_level);
