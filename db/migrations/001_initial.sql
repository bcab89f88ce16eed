-- Sessions (one game each), their seats, and the append-only log of accepted actions.
CREATE TABLE sessions (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    game_id          TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    creator_id       INTEGER NOT NULL,
    players          INTEGER NOT NULL,          -- seats wanted
    options          TEXT    NOT NULL,          -- JSON: {"variants": [...], ...}
    seed             INTEGER NOT NULL,
    state            TEXT,                      -- JSON engine state; NULL in the lobby
    version          INTEGER NOT NULL DEFAULT 0, -- number of accepted actions
    lang             TEXT    NOT NULL DEFAULT 'en',
    turn_message_id  INTEGER,
    result           TEXT,                      -- JSON final totals and ranking
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    finished_at      TEXT
);
-- One open game per channel (a thread is a channel too).
CREATE UNIQUE INDEX sessions_one_open_per_channel
    ON sessions (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX sessions_channel_finished ON sessions (channel_id, finished_at);

CREATE TABLE seats (
    session_id  INTEGER NOT NULL REFERENCES sessions (id),
    seat        INTEGER NOT NULL,
    user_id     INTEGER,                        -- NULL for a computer player
    name        TEXT    NOT NULL,
    PRIMARY KEY (session_id, seat)
);
CREATE INDEX seats_user ON seats (user_id);

CREATE TABLE actions (
    session_id  INTEGER NOT NULL REFERENCES sessions (id),
    n           INTEGER NOT NULL,               -- 0-based; equals the version it produced minus 1
    seat        INTEGER NOT NULL,
    user_id     INTEGER,                        -- who clicked (NULL: computer player)
    code        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (session_id, n)
);

-- Users whose DMs Discord refused (error 50007): no blind retries until `until`.
CREATE TABLE dm_refusals (
    user_id  INTEGER PRIMARY KEY,
    until    TEXT NOT NULL
);
