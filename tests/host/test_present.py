"""Message building: final results that do not fit, clocks, links."""

from __future__ import annotations

from datetime import UTC, datetime

from db.store import SeatRow, SessionRow
from session import present, results, specs
from session.values import TimerEvent


def row(**kw) -> SessionRow:
    base = dict(id=3, guild_id=9, channel_id=8, game_id="kingdomino", status="finished",
                creator_id=1, players=2, options={}, seed=0, state_json=None, version=5,
                lang="en", turn_message_id=77, result=None, created_at="", updated_at="",
                finished_at=None, seats=[SeatRow(0, 1, "Ala"), SeatRow(1, 2, "Bo")])
    base.update(kw)
    return SessionRow(**base)


def test_a_long_breakdown_gets_one_message_with_a_file_and_loses_nothing():
    lines = [["kingdomino.score.property", n, {"terrain": "wheat", "squares": n, "crowns": 1}]
             for n in range(120)]
    r = row(result={"ranking": [[1], [0]], "totals": [5, 7], "breakdown": [lines[:3], lines]})
    final = results.final_lines(r, "en")
    assert all(not line.startswith("  · ") for line in final) and "Bo" in final[1]
    spec = results.breakdown_message(r, "en")
    assert spec is not None and spec.image is not None and spec.filename == "scores.txt"
    assert spec.content == "📄 Every player's full score breakdown is in the attached file."
    assert not spec.rows and not spec.pings
    shown = spec.image.decode("utf-8")
    assert shown.count("· ") == 123
    assert shown.startswith("Bo: 7 points\n")  # in ranking order, no markdown in a text file
    assert "\n\nAla: 5 points\n" in shown
    assert spec.description is not None
    assert spec.description.startswith("Final result: 1. Bo 7 · 2. Ala 5.")


def test_a_short_breakdown_stays_in_the_final_message():
    r = row(result={"ranking": [[0], [1]], "totals": [3, 0],
                    "breakdown": [[["kingdomino.score.property", 3,
                                    {"terrain": "wheat", "squares": 3, "crowns": 1}]], []]})
    assert any(line.startswith("  · ") for line in results.final_lines(r, "en"))
    assert results.breakdown_message(r, "en") is None


def test_clock_line_and_link():
    now = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)
    r = row(status="active", pace_json='{"kind": "daily", "increment": 86400, "cap": 259200}',
            seats=[SeatRow(0, 1, "Ala", 90000.0, "2026-01-02T11:00:00+00:00"),
                   SeatRow(1, 2, "Bo", 3600.0, None)])
    # the running clock as the moment it runs out, a Discord timestamp each reader sees in
    # their own time zone and never stale (issue 24); a bank that does not run as it stands
    runs_out = int(datetime(2026, 1, 3, 12, 0, tzinfo=UTC).timestamp())
    assert present.clock_line(r, now, "en") == f"⏱ Ala ⏳ <t:{runs_out}:R> · Bo 1h 00m"
    remind = present.timer_message(TimerEvent("remind", r, 0, params={"left": 3600.0}), "pl")
    assert f"<t:{runs_out}:R> (<t:{runs_out}:f>)" in remind.content
    assert "{" not in remind.content
    assert present.clock_line(row(), now, "en") == ""
    assert present.link(r) == "https://discord.com/channels/9/8/77"


async def test_every_board_and_hand_is_described_in_words_in_the_readers_language():
    import engines
    from session.values import Notice

    game = engines.get("kingdomino")
    state = game.setup(2, {}, seed=4)
    seat = game.to_act(state)[0]
    code = game.legal_actions(state, seat)[0]
    state, _ = game.apply(state, seat, code)
    r = row(status="active", seats=[SeatRow(0, 1, "Ala"), SeatRow(1, 2, "Bo")])
    notices = [Notice("notice.played", {"seat": seat, "action": "x"})]
    for lang, words in (("en", ("Kingdomino", "To move:", "Scores:")),
                        ("pl", ("Plansza", "Ruch:", "Wyniki:")),
                        ("uk", ("Дошка", "Хід:", "Рахунок:"))):
        spec = await present.turn_message(r, state, notices, lang)
        assert spec.image is not None and spec.description
        assert all(word in spec.description for word in words), spec.description
        to_move = r.seats[game.to_act(state)[0]].name
        assert to_move in spec.description and "<@" not in spec.description
        hand = await present.hand_message(r, state, 0, lang)
        assert hand.description and "Ala" in hand.description
    final = await present.turn_message(row(result={"ranking": [[0], [1]], "totals": [3, 0],
                                                   "breakdown": [[], []]}), state, [], "en")
    assert final.description and final.description.startswith("Final result: 1. Ala 3")


def test_alt_text_fits_discords_limit_and_drops_mentions():
    text = present.alt_text(["To move: Ala (<@123>)", "x" * 3000])
    assert len(text) == specs.MAX_DESCRIPTION and "<@" not in text
