-- Asynchronous play: turn clocks, durable timers, undo, substitutes, votes, settings, ratings.

-- Pace of a session (JSON: {"kind": "none" | "realtime" | "daily", ...}); last activity time.
ALTER TABLE sessions ADD COLUMN pace TEXT NOT NULL DEFAULT '{"kind": "none"}';
ALTER TABLE sessions ADD COLUMN last_action_at TEXT;

-- Each seat's time bank (seconds left) and since when its clock runs (NULL: not running).
ALTER TABLE seats ADD COLUMN bank REAL;
ALTER TABLE seats ADD COLUMN running_since TEXT;

-- The log stays append-only: an undone action is marked, never deleted. `version` is the
-- session version the action produced; versions only grow (an undo is a version too).
ALTER TABLE actions ADD COLUMN version INTEGER;
ALTER TABLE actions ADD COLUMN undone_version INTEGER;
ALTER TABLE actions ADD COLUMN reveals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE actions ADD COLUMN kind TEXT NOT NULL DEFAULT 'move';  -- move | computer | skip
UPDATE actions SET version = n + 1;

-- Who sat in a seat from which version on (substitutes, computer replacements).
CREATE TABLE seat_history (
    session_id    INTEGER NOT NULL REFERENCES sessions (id),
    seat          INTEGER NOT NULL,
    user_id       INTEGER,
    name          TEXT    NOT NULL,
    from_version  INTEGER NOT NULL
);

-- Durable timers served by one dispatcher: reminders, timeouts, inactivity warnings.
CREATE TABLE timers (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES sessions (id),
    seat        INTEGER,
    kind        TEXT    NOT NULL,           -- remind | last_call | timeout | idle_warn | archive
    due_at      TEXT    NOT NULL,
    fired_at    TEXT
);
CREATE INDEX timers_due ON timers (due_at) WHERE fired_at IS NULL;

-- Open votes (timeout handling, ending early): one ballot per voter.
CREATE TABLE votes (
    session_id  INTEGER NOT NULL REFERENCES sessions (id),
    topic       TEXT    NOT NULL,           -- e.g. "timeout:2:17" or "end"
    user_id     INTEGER NOT NULL,
    choice      TEXT    NOT NULL,
    PRIMARY KEY (session_id, topic, user_id)
);

CREATE TABLE user_settings (
    user_id      INTEGER PRIMARY KEY,
    tz           TEXT    NOT NULL DEFAULT 'UTC',
    quiet_start  INTEGER,                   -- hour 0-23 in the user's time zone
    quiet_end    INTEGER,
    pings        INTEGER NOT NULL DEFAULT 1
);

-- Ratings are not stored: Elo is recomputed from the finished games, so it can never drift.
