-- Migration 0010: the processes sharing the timers (PostgreSQL's timer leases).
-- Reason: issue 16. On PostgreSQL several processes share the timers and each keeps a heartbeat
--         here; SQLite has one process and never writes it. The table exists on both so that the
--         two dialects keep one schema and one version number (python -m db.copy compares them).
-- Date: 2026-12-04

CREATE TABLE timer_processes (
    owner      TEXT    PRIMARY KEY,
    expires_at INTEGER NOT NULL  -- milliseconds since the epoch, on the database's clock
);
