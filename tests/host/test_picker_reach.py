"""The move picker never drops a legal move (issue 14, item 5): over whole games of every game,
every legal action of every seat to act is reachable by clicking what the picker shows, and
every step fits Discord's component limits. Goes through ``present.picker_rows`` (what the bot
really sends), so a picker step that offers more than a menu holds, and is cut, fails here."""

from __future__ import annotations

import random

import pytest

import engines
from db.store import SeatRow, SessionRow
from session import ids, present, specs
from session.service import check_code, playable

#: Discord's limits on one message's components
ROWS, BUTTONS, OPTIONS, CUSTOM_ID, LABEL, VALUE = 5, 5, 25, 100, 80, 100
#: states checked per game and player count: whole games, a bounded number of states each
GAMES_PER_COUNT = 1


def session_row(game_id: str, players: int, version: int) -> SessionRow:
    return SessionRow(
        id=123456789, guild_id=1, channel_id=2, game_id=game_id, status="active", creator_id=1,
        players=players, options={"variants": []}, seed=0, state_json=None, version=version,
        lang="en", turn_message_id=None, result=None, created_at="", updated_at="",
        finished_at=None, seats=[SeatRow(s, 100 + s, f"P{s}") for s in range(players)])


def check_limits(rows: list) -> None:
    assert len(rows) <= ROWS
    custom_ids = [item.custom_id for row in rows for item in row]
    assert len(set(custom_ids)) == len(custom_ids), "Discord wants a message's ids different"
    for row in rows:
        assert 1 <= len(row) <= BUTTONS
        for item in row:
            assert len(item.custom_id) <= CUSTOM_ID
            if isinstance(item, specs.SelectSpec):
                assert len(row) == 1 and 1 <= len(item.options) <= OPTIONS
                assert len(item.placeholder) <= 150
                assert all(len(label) <= 100 and len(value) <= VALUE
                           for label, value in item.options)
                assert len({value for _, value in item.options}) == len(item.options)
            else:
                assert len(item.label) <= LABEL


def reachable(row: SessionRow, state: dict, codes: list[str]) -> set[str]:
    """Every action code a player can play by clicking through the picker from its start.
    Each step's private message is checked too: it names what was chosen so far, in words
    (no raw token or key), and its menus' ids are all different."""
    found: set[str] = set()
    seen: set[str] = set()
    todo = [""]
    while todo:
        prefix = todo.pop()
        if prefix in seen:
            continue
        seen.add(prefix)
        rows = present.picker_rows(row, state, codes, prefix, "en")
        check_limits(rows)
        if prefix:
            message = present.picker_message(row, state, codes, prefix, "en")
            assert message.rows == rows and "picker." not in message.content, message.content
            assert "#" not in message.content and "_" not in message.content, message.content
        for item in (i for r in rows for i in r):
            if isinstance(item, specs.SelectSpec):
                targets = [(value[:2] == "a:", value[2:]) for _, value in item.options]
            else:
                parsed = ids.parse(item.custom_id)
                assert parsed is not None and parsed.version == row.version
                targets = [(parsed.kind == "act", parsed.payload)]
            for complete, payload in targets:
                if complete:
                    found.add(payload)
                elif payload in codes and present.previewed(row.game_id, payload):
                    found.add(payload)  # a preview with a Confirm button for this code
                else:
                    todo.append(payload)
    return found


@pytest.mark.parametrize("game_id", playable())
def test_every_legal_action_is_reachable_by_clicking_in_whole_games(game_id):
    game = engines.get(game_id)
    rng = random.Random(14)
    checked = 0
    for players in range(game.meta.min_players, game.meta.max_players + 1):
        for _ in range(GAMES_PER_COUNT):
            state = game.setup(players, {"variants": []}, rng.randrange(2**31))
            version = 0
            while not game.is_over(state):
                row = session_row(game_id, players, version)
                for seat in game.to_act(state):
                    codes = game.legal_actions(state, seat)
                    for code in codes:
                        check_code(code)  # the session layer's boundary lets it through
                    missing = set(codes) - reachable(row, state, codes)
                    assert not missing, (game_id, players, version, sorted(missing)[:5])
                    checked += 1
                seat = rng.choice(game.to_act(state))
                state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
                version += 1
    assert checked > 0


def test_a_step_with_more_choices_than_a_menu_holds_is_split_not_cut():
    """Tokens with many distinct first characters, and groups bigger than a menu: each code
    stays reachable within Discord's limits."""
    codes = [f"go {a}{b}" for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123" for b in range(30)]
    codes += ["go", "stop"]
    row = session_row("kingdomino", 2, 1)
    assert reachable(row, {}, codes) == set(codes)
