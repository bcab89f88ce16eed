-- When start-up recovery last re-announced a fired timer (a timeout's vote): one guarded
-- UPDATE on it lets only one of several processes starting at once post the vote again.
ALTER TABLE timers ADD COLUMN reannounced_at TEXT;
