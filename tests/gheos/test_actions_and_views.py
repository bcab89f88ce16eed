"""Error cases (specific keys, state untouched), descriptions, views and hidden information."""

import json

import pytest

from engines.base import IllegalAction, MalformedAction, NotYourTurn
from engines.gheos import GAME
from engines.gheos.position import position
from engines.gheos.preview import preview
from text.catalog import LANGUAGES, catalog

from .helpers import full, lr, play, playout, shores


def start():
    return GAME.setup(3, {}, 11)


@pytest.mark.parametrize("seat,code,error,key", [
    (1, "place T1 M29 r0", NotYourTurn, "gheos.error.not_your_turn"),
    (0, "", MalformedAction, "gheos.error.malformed"),
    (0, "dance", MalformedAction, "gheos.error.malformed"),
    (0, "place", MalformedAction, "gheos.error.malformed"),
    (0, "place {t} M29 r3", MalformedAction, "gheos.error.bad_rotation"),
    (0, "place {t} Q99 r0", MalformedAction, "gheos.error.bad_cell"),
    (0, "place {t} M29 r0 extra", MalformedAction, "gheos.error.malformed"),
    (0, "place T99 M29 r0", IllegalAction, "gheos.rule.tile_not_in_hand"),
    (0, "place {t} M30 r0", IllegalAction, "gheos.rule.cell_taken"),
    (0, "place {t} A1 r0", IllegalAction, "gheos.rule.must_touch_board"),
    (0, "replace {t} M29 r0", IllegalAction, "gheos.rule.nothing_to_replace"),
    (0, "replace {t} M30 r0", IllegalAction, "gheos.rule.pyramid_cannot_be_replaced"),
    (0, "found red M30", IllegalAction, "gheos.rule.wrong_step"),
    (0, "token", IllegalAction, "gheos.rule.wrong_step"),
    (0, "pay red", IllegalAction, "gheos.rule.wrong_step"),
    (0, "x" * 61, MalformedAction, "gheos.error.malformed"),
])
def test_errors_name_the_rule_and_leave_the_state_alone(seat, code, error, key):
    s = start()
    before = GAME.notation(s)
    with pytest.raises(error) as err:
        GAME.apply(s, seat, code.format(t=s["hands"][0][0]))
    assert err.value.key == key
    assert GAME.notation(s) == before
    assert isinstance(err.value, ValueError) and str(err.value)


def test_step_two_and_three_errors():
    s = position(2, {"M29": full("wheat"), "M30": full(), "K27": full(), "K28": full()},
                 civs={"red": "K27"}, followers=[{"red": 5}, {}], phase="civ")
    before = GAME.notation(s)
    for code, key in [("found red M29", "gheos.rule.marker_on_board"),
                      ("found blue K27", "gheos.rule.found_on_uninhabited_continent"),
                      ("found blue M30", "gheos.rule.found_on_uninhabited_continent"),
                      ("found purple M29", "gheos.error.bad_colour"),
                      ("take red", "gheos.rule.take_from_civilization_on_board"),
                      ("take blue", "gheos.rule.take_from_civilization_on_board")]:
        with pytest.raises((IllegalAction, MalformedAction)) as err:
            GAME.apply(s, 0, code)
        assert err.value.key == key, code
    assert GAME.notation(s) == before
    s = position(2, {"M29": full()}, tokens=[0, 1], phase="score")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "token")
    assert err.value.key == "gheos.rule.no_scoring_token"


def test_choice_errors():
    s = position(3, {"M27": lr("wheat"), "M28": lr(), "M29": lr(), "M30": lr(),
                     "M31": lr("wheat")}, civs={"red": "M28"},
                 followers=[{"red": 1}, {}, {}], hands=[[shores(), "T9"], [], []])
    s, _ = play(s, 0, "replace H1 M29 r0")
    for code, key in [("migrate red M29", "gheos.rule.migrate_most_wheat"),
                      ("migrate blue M27", "gheos.rule.migrate_most_wheat"),
                      ("win red", "gheos.rule.wrong_step"),
                      ("migrate red", "gheos.error.malformed")]:
        with pytest.raises((IllegalAction, MalformedAction)) as err:
            GAME.apply(s, 0, code)
        assert err.value.key == key, code


def test_every_error_and_event_key_has_text_in_every_language():
    english = catalog("en")
    state, log, events = playout(3, 5)
    used = {e["key"] for e in events}
    used |= {GAME.describe(state, code)[0] for _, code in log}
    used |= {line.key for lines in GAME.scores(state) for line in lines}
    for key in used:
        assert key in english, key
    for lang in LANGUAGES:
        table = catalog(lang)
        gheos = {k for k in table if k.startswith("gheos.")}
        assert gheos == {k for k in english if k.startswith("gheos.")}, lang


def test_descriptions_are_keys_with_params():
    s = start()
    code = GAME.legal_actions(s, 0)[0]
    key, params = GAME.describe(s, code)
    assert key == "gheos.action.place" and params["cell"] in code and params["rotation"] == 0
    assert GAME.describe(s, "nonsense")[0] == "action.generic"


def test_codes_are_short_and_verb_first():
    state, log, _ = playout(4, 2)
    assert all(len(code) <= 60 and code.split()[0].isalpha() for _, code in log)


# --- views and hidden information ---------------------------------------------------------
def test_spectator_view_hides_hands_and_the_bag():
    state, log, _ = playout(3, 4)
    # replay and look at every spectator view along the way
    s = GAME.setup(3, {}, 4)
    for seat, code in log[:60]:
        spectator = json.dumps(GAME.view(s, None))
        public = {b[0] for b in s["board"].values()} | set(s["removed"])
        hidden = {t for h in s["hands"] for t in h} | set(s["bag"])
        for tid in hidden - public:
            assert f'"{tid}"' not in spectator, tid
        assert "private" not in GAME.view(s, None)
        mine = GAME.view(s, seat)
        assert [h["id"] for h in mine["private"]["hand"]] == s["hands"][seat]
        other = (seat + 1) % 3
        assert not set(s["hands"][other]) & {h["id"] for h in mine["private"]["hand"]}
        s, events = GAME.apply(s, seat, code)
        for e in events:
            if "private_to" not in e and e["key"] != "gheos.event.placed" \
                    and e["key"] != "gheos.event.replaced":
                assert "tile" not in e, e


def test_drawn_tiles_are_told_only_to_their_owner():
    s = position(2, {"M29": full(), "M30": full()}, hands=[["T20"], ["T21", "T22"]],
                 bag=["T5"], phase="score")
    s, ev = play(s, 0, "pass")
    private = [e for e in ev if e.get("private_to") == 0]
    assert private and private[0]["tile"] == "T5" and private[0]["reveal"]
    assert all("T5" not in json.dumps(e) for e in ev if "private_to" not in e)


def test_view_has_what_the_image_needs():
    v = GAME.view(start(), None)
    for k in ("to_act", "phase", "board", "frontier", "regions", "civs", "seats", "epochs",
              "last_epoch", "bag", "supply", "pending", "turn"):
        assert k in v
    assert v["seats"][0].keys() >= {"score", "followers", "tokens", "hand"}
    assert json.loads(json.dumps(v)) == v


def test_preview_of_a_war_placement():
    s = position(3, {"M27": lr(), "M28": lr(), "M30": lr("swords"), "M31": lr()},
                 civs={"yellow": "M27", "red": "M30"}, followers=[{"red": 1}, {}, {}],
                 hands=[[full("temple_swords"), "T9"], [], []])
    before = GAME.notation(s)
    p = preview(s, 0, "place H1 M29 r0")
    assert p["legal"] and p["cost"] == 1 and p["wars"] == [["red", "yellow"]]
    assert p["temple"] == {"symbol": "swords", "points": None}
    assert p["regions"][0]["label"] == "M27" and p["regions"][0]["kind"] == "continent"
    assert p["view"]["board"] and p["highlight"] == "M29"
    assert GAME.notation(s) == before
    bad = preview(s, 0, "place H1 A1 r0")
    assert not bad["legal"] and bad["error"] == "gheos.rule.must_touch_board"
    calm = preview(s, 0, "place H1 M26 r0")
    assert calm["cost"] == 0 and calm["wars"] == [] and calm["temple"]["points"] == 0
