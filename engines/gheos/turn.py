"""The automatic part of a turn: settling a placement (payment, migrations, wars, temple),
skipping steps with nothing to choose, drawing, and passing the turn on."""

from __future__ import annotations

import engines.gheos.rules as R
from engines.gheos.actions import civ_actions, tile_actions
from engines.gheos.regions import Land


def pay(s: dict, seat: int, colour: str, events: list) -> None:
    R.return_follower(s, seat, colour)
    s["pending"]["pay"] = False
    s["pending"]["choice"] = None
    events.append({"key": "gheos.event.paid", "seat": seat, "civ": colour})


def _resolve(s: dict, events: list) -> bool:
    """Settle the placement: payment, migrations, wars. False while a choice is awaited."""
    p = s["pending"]
    if p["choice"] is not None:
        return False
    seat = s["turn"]
    if p["pay"]:
        held = [c for c in R.CIVILIZATIONS if s["followers"][seat].get(c)]
        if len(held) > 1:
            p["choice"] = {"type": "pay", "options": held}
            return False
        pay(s, seat, held[0], events)
    land = Land(s)
    for colour in sorted(p["migrate"], key=R.CIVILIZATIONS.index):
        dests = R.migration_destinations(land, p["migrate"][colour])
        if not dests:
            R.eliminate(s, colour, events, "island")
            del p["migrate"][colour]
            continue
        if len(dests) > 1:
            p["choice"] = {"type": "migrate", "civ": colour,
                           "options": [land.region(r).label for r in dests]}
            return False
        R.land_migration(s, land, colour, dests[0], events)
        del p["migrate"][colour]
    for region, civs in R.war_fronts(s, land):
        tied, _, swords = R.war_contenders(s, land, region, civs)
        if len(tied) > 1:
            p["choice"] = {"type": "war", "civs": civs, "options": tied, "cell": region.label}
            return False
        R.win_war(s, region, tied[0], civs, swords, events, chosen=False)
    return True


def _temple(s: dict, events: list) -> None:
    """A temple placed this turn scores once the wars and migrations are settled."""
    p = s["pending"]
    land = Land(s)
    got = R.temple_points(s, land, p["cell"])
    if got is None:
        return
    symbol, pts = got
    seat = s["turn"]
    R.add_points(s, seat, "temple", pts)
    events.append({"key": "gheos.event.temple", "seat": seat, "symbol": symbol,
                   "points": pts, "cell": p["cell"]})


def end_turn(s: dict, events: list) -> None:
    seat = s["turn"]
    if R.draw_tiles(s, seat, events):
        R.end_game(s, "epochs", events)
        return
    if not any(s["hands"]):
        R.end_game(s, "tiles", events)  # cannot happen with 8 epoch tiles in the bag
        return
    s["turn"] = (seat + 1) % s["players"]
    s["turn_no"] += 1
    s["phase"] = "tile"


def advance(s: dict, events: list) -> None:
    """Run the steps that need no decision until a player must choose or the game ends."""
    while True:
        phase = s["phase"]
        if phase == "resolve":
            if not _resolve(s, events):
                return
            _temple(s, events)
            s["pending"] = None
            s["phase"] = "civ"
        elif phase == "civ":
            if civ_actions(s):
                return
            events.append({"key": "gheos.event.no_civ_action", "seat": s["turn"]})
            s["phase"] = "score"
        elif phase == "score":
            if s["tokens"][s["turn"]] > 0:
                return
            end_turn(s, events)
        elif phase == "tile":
            if tile_actions(s, s["turn"], first_only=True):
                s.pop("stalled", None)
                return
            # no tile in hand, or every placement would cost a follower the player lacks
            events.append({"key": "gheos.event.no_tile_action", "seat": s["turn"]})
            s["stalled"] = s.get("stalled", 0) + 1
            if s["stalled"] > s["players"]:
                R.end_game(s, "tiles", events)  # nobody can place any more: a safety net
                return
            s["phase"] = "civ"
        else:
            return
