-- Games that last weeks (issue 12): server defaults, each user's language, one living hand.
-- Portable SQL (SQLite and PostgreSQL): Discord ids are BIGINT.

-- A server's defaults, set by its managers (/game settings server); NULL: Stolik's default.
CREATE TABLE guild_settings (
    guild_id      BIGINT PRIMARY KEY,
    pace          TEXT,                 -- default pace of /game new
    remind_hours  REAL,                 -- untimed games: first reminder after this silence
    absent_hours  REAL,                 -- untimed games: the others may vote after this
    lang          TEXT                  -- language of public posts when Discord gives none
);

-- Each user's language, remembered from their interactions (Discord sends their locale).
CREATE TABLE user_locales (
    user_id  BIGINT PRIMARY KEY,
    lang     TEXT NOT NULL
);

-- One private message per player per game, edited in place when their view changes.
CREATE TABLE hand_messages (
    session_id  INTEGER NOT NULL REFERENCES sessions (id),
    user_id     BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,       -- the DM channel
    message_id  BIGINT  NOT NULL,
    acting      INTEGER NOT NULL,       -- 1: sent as "your move" (a new DM once per turn)
    PRIMARY KEY (session_id, user_id)
);
