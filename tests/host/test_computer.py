"""Computer seats: levels stored per seat, moves decided off the event loop, failures loud."""

from __future__ import annotations

import logging
import threading

import pytest

import engines
from session import computer
from session.errors import SessionError
from session.service import Sessions
from tests.host.days import rooms_over

CH = 70


async def lobby(sessions: Sessions, players: int = 3) -> None:
    await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="Ala",
                       players=players)


def patch_bot(monkeypatch, bot) -> None:
    monkeypatch.setattr(type(engines.get("toy")), "bot_action", bot)


async def test_levels_are_stored_per_seat_and_each_computer_plays_its_own(sessions, monkeypatch):
    calls: list[tuple[int, str, bool]] = []
    loop_thread = threading.get_ident()

    def bot(self, state, seat, rng, level="normal"):
        calls.append((seat, level, threading.get_ident() == loop_thread))
        return "pick 1"

    patch_bot(monkeypatch, bot)
    await lobby(sessions)
    await sessions.join(CH, None, "Bot easy", level="easy")
    out = await sessions.join(CH, None, "Bot")  # no level: normal
    assert [s.level for s in out.session.seats] == [None, "easy", None]
    assert sorted(calls) == [(1, "easy", False), (2, "normal", False)]  # never on the loop
    assert out.session.version == 2


async def test_an_unknown_level_is_refused_and_no_seat_is_taken(sessions):
    await lobby(sessions)
    with pytest.raises(SessionError) as err:
        await sessions.join(CH, None, "Bot", level="grandmaster")
    assert err.value.key == "error.bot_level" and err.value.params["levels"] == "easy, normal"
    assert len((await sessions.in_channel(CH)).seats) == 1


async def test_a_crashing_computer_player_fails_loudly_in_tests(sessions, monkeypatch):
    def bot(self, state, seat, rng, level="normal"):
        raise ZeroDivisionError("bug in the bot")

    patch_bot(monkeypatch, bot)
    await lobby(sessions, players=2)
    with pytest.raises(computer.ComputerPlayerFailed) as err:
        await sessions.join(CH, None, "Bot")
    assert "ZeroDivisionError" in str(err.value) and '"round":1' in str(err.value)
    row = await sessions.in_channel(CH)
    assert row.status == "active" and row.version == 0  # nothing half-done was stored


@pytest.mark.parametrize("failure", ["raises", "illegal"])
async def test_in_production_a_failing_bot_is_logged_and_the_game_goes_on(
        sessions, monkeypatch, caplog, failure):
    def bot(self, state, seat, rng, level="normal"):
        if failure == "raises":
            raise KeyError("no such card")
        return "pick 99"

    patch_bot(monkeypatch, bot)
    monkeypatch.setattr(sessions, "strict_bots", False)
    await lobby(sessions, players=2)
    with caplog.at_level(logging.ERROR, logger="session.computer"):
        out = await sessions.join(CH, None, "Bot")
    assert out.session.version == 1  # a legal move was played for the computer
    [action] = await sessions.store.actions(out.session.id)
    assert action.seat == 1 and action.code in ("pick 1", "pick 2", "pick 3")
    [record] = caplog.records
    assert "toy computer player failed for seat 1" in record.getMessage()
    assert '"round":1' in record.getMessage()  # the position, to reproduce it
    assert ("KeyError" if failure == "raises" else "illegal move 'pick 99'") in record.getMessage()


async def test_the_fallback_move_is_seeded(monkeypatch):
    monkeypatch.setattr(type(engines.get("kingdomino")), "bot_action",
                        lambda self, state, seat, rng, level="normal": "nonsense")
    state = engines.get("kingdomino").setup(4, {}, 5)
    seat = engines.get("kingdomino").to_act(state)[0]
    first = computer.decide("kingdomino", state, seat, "7/bot/0", "normal")
    again = computer.decide("kingdomino", state, seat, "7/bot/0", "normal")
    assert first == again and first.failure and first.code.startswith("pick ")


async def test_a_computer_replacing_an_absent_player_plays_normal(sessions, clock, monkeypatch):
    levels: list[str] = []
    game = engines.get("kingdomino")
    real = type(game).bot_action

    def bot(self, state, seat, rng, level="normal"):
        levels.append(level)
        return real(self, state, seat, rng, level)

    monkeypatch.setattr(type(game), "bot_action", bot)
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1,
                             name="P1", players=3, pace="daily:1:2")
    await sessions.join(CH, 2, "P2")
    out = await sessions.join(CH, 3, "P3")
    row = out.session
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    clock.advance(days=2)
    rooms = rooms_over(sessions)
    await rooms.timers.fire_due()
    for s in row.seats:
        if s.seat != seat:
            out = await rooms.absence.vote(row.id, s.user_id, f"timeout:{seat}", "computer")
    assert out.session.seats[seat].is_bot and out.session.seats[seat].level is None
    assert levels and set(levels) == {"normal"}


@pytest.mark.parametrize("game_id", ["kingdomino", "bunny_kingdom", "gheos", "dwoch_nastepcow"])
async def test_every_game_s_crashing_bot_fails_loudly(game_id, monkeypatch):
    game = engines.get(game_id)

    def bot(self, state, seat, rng, level="normal"):
        raise RuntimeError("broken")

    monkeypatch.setattr(type(game), "bot_action", bot)
    state = game.setup(game.meta.min_players, {}, 3)
    seat = game.to_act(state)[0]
    with pytest.raises(computer.ComputerPlayerFailed) as err:
        await computer.move(game_id, state, seat, "3/bot/0", "normal", strict=True)
    assert "RuntimeError: broken" in str(err.value) and game.notation(state) in str(err.value)
