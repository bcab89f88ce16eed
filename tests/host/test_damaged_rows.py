"""Damaged rows (issue 27, item 8): a real database whose rows are damaged by direct SQL. A
damaged game is rebuilt (its state from seed + log, its options from what the row still
tells, or the defaults with a log line) or reported by its number and game; it never says
"not started yet", "could not be saved", nor drops out of ``/game mine``."""

from __future__ import annotations

import logging

import pytest

from session.errors import SessionError
from session.present import mine_text
from session.service import Sessions
from session.values import Outcome
from tests.host.days import CH, first_moves, kingdomino, rooms_over
from text.catalog import t

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"


async def damage(sessions: Sessions, sql: str, *params) -> None:
    async with sessions.db.transaction() as tx:
        await tx.execute(sql, params)


def restarted(sessions: Sessions) -> Sessions:
    """A new process over the same database (no state remembered in memory)."""
    return Sessions(sessions.db, clock=sessions.clock)


async def test_a_null_state_is_rebuilt_from_the_log_and_the_game_goes_on(sessions, caplog):
    row = await first_moves(sessions, await kingdomino(sessions, pace=None), 3)
    before = await sessions.state(row)
    await damage(sessions, "UPDATE sessions SET state = NULL WHERE id = ?", row.id)
    fresh = restarted(sessions)
    row = await fresh.session(row.id)
    with caplog.at_level(logging.WARNING):
        assert await fresh.state(row) == before
    assert f"session {row.id}" in caplog.text
    row = await first_moves(fresh, row, 1)  # and the next move is stored
    assert row.state_json is not None
    mine = await rooms_over(fresh).profile.mine(1)
    assert [m["session"].id for m in mine] == [row.id]


async def test_a_lobby_is_still_not_started(sessions):
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1,
                             name="Ala")
    with pytest.raises(SessionError) as err:
        await sessions.state(out.session)
    assert err.value.key == "error.not_started"


async def test_unreadable_options_are_recovered_from_the_state(sessions, caplog):
    await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1, name="Ala",
                       players=2, variants="harmony")
    row = await first_moves(sessions, (await sessions.join(CH, 2, "Bo")).session, 3)
    before = await sessions.state(row)
    await damage(sessions, "UPDATE sessions SET options = '{oops' WHERE id = ?", row.id)
    fresh = restarted(sessions)
    with caplog.at_level(logging.WARNING):
        row = await fresh.session(row.id)
    assert row.options == {"variants": ["harmony"]}
    assert f"session {row.id}" in caplog.text and "options" in caplog.text
    # the recovered options replay the game as it was played (/game replay, undo)
    assert await fresh.replay(row) == before
    mine = await rooms_over(fresh).profile.mine(2)
    assert [m["session"].id for m in mine] == [row.id]


async def test_options_that_tell_nothing_become_the_defaults_with_a_log_line(sessions, caplog):
    await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="A",
                       players=2)
    row = (await sessions.join(CH, 2, "B")).session
    await damage(sessions, "UPDATE sessions SET options = 'not json' WHERE id = ?", row.id)
    with caplog.at_level(logging.WARNING):
        row = await restarted(sessions).session(row.id)
    assert row.options == {"variants": []}
    assert f"session {row.id}" in caplog.text and "defaults" in caplog.text


async def test_a_game_beyond_repair_is_reported_by_number_and_game(sessions, caplog):
    """Its state lost and its log no longer replaying: /game mine names it, and the others
    are still listed; a move in it is refused with its number and game."""
    broken = await first_moves(sessions, await kingdomino(sessions, pace=None), 3)
    await sessions.new(guild_id=1, channel_id=CH + 1, game_id="kingdomino", user_id=1,
                       name="Ala")
    await damage(sessions, "UPDATE sessions SET state = NULL WHERE id = ?", broken.id)
    await damage(sessions, "UPDATE actions SET code = 'nonsense' WHERE session_id = ? AND n = 1",
                 broken.id)
    fresh = restarted(sessions)
    with caplog.at_level(logging.ERROR):
        mine = await rooms_over(fresh).profile.mine(1)
    assert [(m["session"].id, m.get("damaged", False)) for m in mine] == [
        (broken.id, True), (broken.id + 1, False)]
    text = mine_text(mine, "en")
    assert t("en", "ui.mine_damaged", game=t("en", "game.kingdomino"), id=broken.id) in text
    assert f"session {broken.id}" in caplog.text
    with pytest.raises(SessionError) as err:
        await fresh.state(await fresh.session(broken.id))
    assert err.value.key == "error.damaged_game"
    assert err.value.params == {"id": broken.id, "game": "kingdomino"}


async def test_a_row_that_cannot_be_read_is_named_not_dropped(sessions):
    """A row that does not even read back (here its result): /game mine still names it, and
    reaching it says which game is damaged, not that something "could not be saved"."""
    row = await kingdomino(sessions, pace=None)
    await damage(sessions, "UPDATE sessions SET result = '{bad' WHERE id = ?", row.id)
    fresh = restarted(sessions)
    mine = await rooms_over(fresh).profile.mine(1)
    assert [(m["id"], m["game_id"], m["damaged"]) for m in mine] == [
        (row.id, "kingdomino", True)]
    assert t("pl", "ui.mine_damaged", game=t("pl", "game.kingdomino"), id=row.id) in \
        mine_text(mine, "pl")
    with pytest.raises(SessionError) as err:
        await fresh.session(row.id)
    assert (err.value.key, err.value.params) == (
        "error.damaged_game", {"id": row.id, "game": "kingdomino"})


async def test_a_move_in_a_game_whose_state_was_lost_publishes_who_acts_next(sessions):
    """The outcome of a move in a rebuilt game tells the board who acts (a lost state is not
    taken for a lobby), and the rebuilt state is stored with the move."""
    row = await first_moves(sessions, await kingdomino(sessions, pace=None), 3)
    await damage(sessions, "UPDATE sessions SET state = NULL WHERE id = ?", row.id)
    fresh = restarted(sessions)
    row = await fresh.session(row.id)
    settled = await fresh.settle(Outcome(row))
    assert settled.to_act and settled.public is not None
