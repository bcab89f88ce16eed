-- Results and ratings kept when a game ends, so /game stats and the leaderboard read a few rows
-- instead of every finished game. Portable SQL (SQLite and PostgreSQL): ids are BIGINT.

-- Who ended a game with /game abandon (the game then counts as that player's loss).
ALTER TABLE sessions ADD COLUMN ended_by BIGINT;

-- One row per ended game once its result is in the standings: the key that makes counting a
-- game idempotent (two processes, or a restart, never count it twice).
CREATE TABLE game_results (
    session_id   BIGINT  NOT NULL PRIMARY KEY REFERENCES sessions (id),
    counted      INTEGER NOT NULL,       -- 0: ended without a result that counts
    recorded_at  TEXT    NOT NULL
);

-- Per player, game and scope: scope is the server's id, or 0 for all servers together.
CREATE TABLE standings (
    user_id    BIGINT  NOT NULL,
    scope      BIGINT  NOT NULL,
    game_id    TEXT    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,   -- counted games (finished, or abandoned by a player)
    wins       INTEGER NOT NULL DEFAULT 0,
    abandoned  INTEGER NOT NULL DEFAULT 0,   -- games this player abandoned (each a loss)
    scored     INTEGER NOT NULL DEFAULT 0,   -- games played to the end: their points count
    points     BIGINT  NOT NULL DEFAULT 0,
    rated      INTEGER NOT NULL DEFAULT 0,   -- games against other people (openskill)
    mu         DOUBLE PRECISION,
    sigma      DOUBLE PRECISION,
    rating     DOUBLE PRECISION,             -- mu - 3 sigma: what the leaderboard orders by
    PRIMARY KEY (user_id, scope, game_id)
);
CREATE INDEX standings_board ON standings (scope, game_id, rating, user_id, rated);
