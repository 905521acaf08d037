-- Migration 0010 (PostgreSQL): the processes sharing the timers, each with a heartbeat.
-- Reason: issue 16. A process takes a fair share of the timer_leases buckets (all of them divided
--         by the live processes); a process that holds no bucket yet (it has just started) must
--         still be counted, or the others would never hand it any. Each process renews its row
--         with its leases; a row whose heartbeat expired is a dead process. SQLite has one
--         process and no counterpart.
-- Date: 2026-12-04

CREATE TABLE timer_processes (
    owner      TEXT   PRIMARY KEY,
    expires_at BIGINT NOT NULL  -- milliseconds since the epoch, on the database's clock
);
