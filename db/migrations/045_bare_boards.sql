-- A live board whose buttons a click's first answer is taking off: written BEFORE the answer
-- goes out, deleted once the board is shown again or retired (with the next board's record).
-- A row left behind means the process stopped in between: start-up shows that board again
-- (one call each), instead of reading every running game's board to find the bare ones.
CREATE TABLE bare_boards (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
    message_id INTEGER NOT NULL,
    version INTEGER NOT NULL
);
