-- Every per-move statement filters on an index (issue 10 item 5).
-- A move deletes and re-adds its session's pending timers: without this, a scan of all of them.
CREATE INDEX timers_session ON timers (session_id) WHERE fired_at IS NULL;
-- Substitutes and replays read a session's seat history.
CREATE INDEX seat_history_session ON seat_history (session_id, from_version);
-- Start-up recovery lists the open games, however many have finished.
CREATE INDEX sessions_open ON sessions (id) WHERE status IN ('lobby', 'active');
