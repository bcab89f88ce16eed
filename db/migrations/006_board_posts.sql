-- A board being posted: written before the post, deleted in the same transaction that records
-- the posted message's id. A row left behind means the bot stopped (or Discord failed) between
-- the two, so the channel may hold a board nobody recorded: reconciled at start-up.
CREATE TABLE board_posts (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
    version INTEGER NOT NULL,
    started_at TEXT NOT NULL
);
