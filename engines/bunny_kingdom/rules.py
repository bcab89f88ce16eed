"""The rules of a round, as the rulebook tells them, acting on a state copy.

Round = exploration (simultaneous secret picks, then all picks revealed and played, hands
pass), construction (camps in priority order, then everyone places buildings), harvest
(trading post choices, then every fief scores). After round 4 the parchments are revealed,
copy cards choose what they copy, and the final scoring is done.

Functions here mutate the state they are given (a copy made by ``Game.apply``) and append
events. Events are dicts with a translation ``key``; ``"reveal": True`` marks hidden
information or chance becoming public (the host never undoes across it).
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import IllegalAction
from engines.bunny_kingdom.board import (
    fief_index,
    is_unoccupied,
    trading_posts,
)
from engines.bunny_kingdom.data import (
    BASIC_RESOURCES,
    CAMPS,
    CELLS,
    COORDS,
    DECK,
    HAND_SIZE,
    INDEX,
    KINDS,
    RABBITS,
    ROUNDS,
    TERRAIN,
    kind_of,
)
from engines.bunny_kingdom.harvest import harvest_fiefs
from engines.bunny_kingdom.scrolls import copy_targets, final_scores

State = dict[str, Any]
Event = dict[str, Any]

SCROLL = "scroll"  # what others see of a parchment played face down


# --- exploration ---------------------------------------------------------------------------
def shuffle_deck(state: State, rng: random.Random) -> None:
    """*Перетасуйте всі карти досліджень*: the 182 cards in a random order."""
    deck = list(DECK)
    rng.shuffle(deck)
    state["deck"] = deck


def pass_direction(round_no: int) -> int:
    """+1 = to the left (next seat) in rounds 1 and 3; -1 = to the right in rounds 2 and 4.

    This is the Ukrainian rulebook and BGA; the Polish edition prints the opposite.
    """
    return 1 if round_no % 2 == 1 else -1


def steps_per_round(players: int) -> int:
    """Pick steps in a round: 2 cards a step (12/2 = 6 with 3, 10/2 = 5 with 4); with 2
    players one card is played and one discarded per step, the reserve adding one: 10 steps."""
    return 10 if players == 2 else HAND_SIZE[players] // 2


def deal(state: State, events: list[Event]) -> None:
    """Start of a round: each player gets 10 (2 or 4 players) or 12 (3 players) cards.

    With 2 players each also gets 10 face-down reserve cards and draws the first of them.
    """
    n = state["players"]
    size = HAND_SIZE[n]
    deck = state["deck"]
    for seat in range(n):
        state["hands"][seat] = deck[:size]
        del deck[:size]
        if n == 2:
            state["reserves"][seat] = deck[:size]
            del deck[:size]
    state["step"] = 1
    state["phase"] = "explore"
    state["picks"] = [None] * n
    events.append({
        "key": "bunny_kingdom.event.round_start", "reveal": True, "round": state["round"],
        "cards": size, "direction": "left" if pass_direction(state["round"]) > 0 else "right",
    })
    if n == 2:
        draw_from_reserve(state)


def draw_from_reserve(state: State) -> None:
    """2 players: before each pick, add 1 card of your face-down reserve to your hand."""
    for seat in range(state["players"]):
        if state["reserves"][seat]:
            state["hands"][seat].append(state["reserves"][seat].pop(0))


def take_from_hand(hand: list[str], kind: str) -> str:
    """Remove and return a card of ``kind`` from the hand (identical copies are equivalent)."""
    for n, card in enumerate(hand):
        if kind_of(card).id == kind:
            return hand.pop(n)
    raise IllegalAction(
        "bunny_kingdom.rule.not_in_hand", f"{kind} is not in your hand", card=kind
    )


def pick(state: State, seat: int, kinds: list[str], events: list[Event]) -> None:
    """*Відбір карт*: choose 2 cards, face down (2 players: the first to play, the second
    to discard face down). Kept secret until every player has picked."""
    hand = state["hands"][seat]
    backup = list(hand)
    try:
        cards = [take_from_hand(hand, k) for k in kinds]
    except IllegalAction:
        state["hands"][seat] = backup
        raise
    state["picks"][seat] = cards
    events.append({"key": "bunny_kingdom.event.picked", "seat": seat})
    events.append({
        "key": "bunny_kingdom.event.you_picked", "seat": seat, "private_to": seat,
        "cards": [kind_of(c).id for c in cards],
    })
    if all(p is not None for p in state["picks"]):
        play_picks(state, events)


def public_face(card: str) -> str:
    """What the table sees of a played card: parchments stay face down."""
    kind = kind_of(card)
    return SCROLL if kind.category == "scroll" else kind.id


def play_picks(state: State, events: list[Event]) -> None:
    """*Розіграш карт*: every pick is revealed, played, then hands pass on."""
    n = state["players"]
    picks = state["picks"]
    events.append({
        "key": "bunny_kingdom.event.reveal", "reveal": True, "round": state["round"],
        "step": state["step"],
        "plays": [[public_face(c) for c in (p[:1] if n == 2 else p)] for p in picks],
        "discarded": [1 if n == 2 else 0 for _ in picks],
    })
    state["last_play"] = [[] for _ in range(n)]
    for seat in range(n):
        cards = picks[seat]
        if n == 2:
            # the second card is discarded face down onto the personal pile
            state["hidden"][seat].append(cards[1])
            cards = cards[:1]
        for card in cards:
            play_card(state, seat, card, events)
    state["picks"] = [None] * n
    pass_hands(state, events)


def play_card(state: State, seat: int, card: str, events: list[Event]) -> None:
    """Play one card: territory -> rabbit; building -> waits face up; parchment -> face down;
    provisions -> draw the top 2 cards of the deck and play them at once."""
    kind = kind_of(card)
    state["last_play"][seat].append(public_face(card))
    if kind.category == "territory":
        claim_territory(state, seat, INDEX[kind.coord], events)
        state["discard"][seat].append(card)
    elif kind.is_building:
        state["waiting"][seat].append(card)
        events.append({"key": f"bunny_kingdom.event.take.{kind.id}", "seat": seat})
    elif kind.category == "scroll":
        state["scrolls"][seat].append(card)
        events.append({"key": "bunny_kingdom.event.take.scroll", "seat": seat})
    else:
        play_provisions(state, seat, card, events)


def rabbits_left(state: State, seat: int) -> int:
    """Rabbits the seat can still put on the board (36 a colour; 3 players: the spare
    colour too, so they never run out). The score-track rabbit is not counted."""
    if state["players"] == 3:
        return CELLS
    return RABBITS - state["owner"].count(seat)


def claim_territory(state: State, seat: int, cell: int, events: list[Event]) -> None:
    """Place a rabbit. A camp there is removed: an opponent's rabbit is replaced by ours.

    A player with no rabbit left (2 or 4 players) gains nothing from the card (our ruling;
    the rulebook only lets 3 players use the spare colour)."""
    owner, building = state["owner"], state["building"]
    coord = COORDS[cell]
    if owner[cell] != seat and rabbits_left(state, seat) <= 0:
        events.append({"key": "bunny_kingdom.event.out_of_rabbits", "seat": seat,
                       "coord": coord})
        return
    events.append({
        "key": "bunny_kingdom.event.territory", "seat": seat, "coord": coord,
        "terrain": TERRAIN[cell],
    })
    if building[cell] in CAMPS:
        if owner[cell] == seat:
            events.append({"key": "bunny_kingdom.event.own_camp_removed", "seat": seat,
                           "coord": coord})
        else:
            events.append({"key": "bunny_kingdom.event.camp_replaced", "seat": seat,
                           "victim": owner[cell], "coord": coord})
        building[cell] = None
    owner[cell] = seat


def play_provisions(state: State, seat: int, card: str, events: list[Event]) -> None:
    """*Карта забезпечення*: draw the top 2 cards of the deck and play them immediately
    (they never join the hand); chained provisions resolve the same way."""
    state["discard"][seat].append(card)
    drawn = state["deck"][:2]
    del state["deck"][:2]
    events.append({
        "key": "bunny_kingdom.event.provisions", "reveal": True, "seat": seat,
        "cards": [public_face(c) for c in drawn],
    })
    for c in drawn:
        play_card(state, seat, c, events)


def pass_hands(state: State, events: list[Event]) -> None:
    """Pass what is left of each hand to the neighbour; when no cards are left, build."""
    n = state["players"]
    d = pass_direction(state["round"])
    hands = state["hands"]
    state["hands"] = [hands[(seat - d) % n] for seat in range(n)]
    if not any(state["hands"]):
        start_construction(state, events)
        return
    state["step"] += 1
    if n == 2:
        draw_from_reserve(state)


# --- construction --------------------------------------------------------------------------
def start_construction(state: State, events: list[Event]) -> None:
    state["phase"] = "camps"
    state["camps_offered"] = []
    state["done"] = [False] * state["players"]
    events.append({"key": "bunny_kingdom.event.phase.build", "round": state["round"]})


def next_camp(state: State) -> tuple[int, str] | None:
    """The camp to offer now: the lowest priority number still waiting and not yet offered
    this round (lower numbers may always go first), if any territory is unoccupied."""
    offered = set(state["camps_offered"])
    best: tuple[int, int, str] | None = None
    for seat, cards in enumerate(state["waiting"]):
        camps = [c for c in cards if c in CAMPS and c not in offered]
        if not camps or rabbits_left(state, seat) <= 0:
            continue  # (a camp needs a rabbit)
        for card in camps:
            prio = KINDS[card].priority
            if best is None or prio < best[0]:
                best = (prio, seat, card)
    if best is None or not any(is_unoccupied(state, i) for i in range(CELLS)):
        return None
    return best[1], best[2]


def place_camp(state: State, seat: int, card: str, cell: int, events: list[Event]) -> None:
    """*Табір*: on an unoccupied territory (no rabbit, no building), with one of your rabbits."""
    if not is_unoccupied(state, cell):
        raise IllegalAction("bunny_kingdom.rule.camp_unoccupied",
                            f"a camp needs an unoccupied territory, {COORDS[cell]} is not",
                            coord=COORDS[cell])
    state["owner"][cell] = seat
    state["building"][cell] = card
    state["waiting"][seat].remove(card)
    state["discard"][seat].append(card)
    state["camps_offered"].append(card)
    events.append({"key": "bunny_kingdom.event.build.camp", "seat": seat, "coord": COORDS[cell],
                   "priority": KINDS[card].priority})


def keep_camp(state: State, seat: int, card: str, events: list[Event]) -> None:
    """Pass: the camp stays in front of you for a later round."""
    state["camps_offered"].append(card)
    events.append({"key": "bunny_kingdom.event.camp_kept", "seat": seat,
                   "priority": KINDS[card].priority})


def may_build_on(state: State, seat: int, kind_id: str, cell: int) -> str | None:
    """Why a building may not go on the cell (a rule key), or None when it may.

    Buildings go on territories you control, one building per territory, respecting the
    terrain condition (strength-3 cities on mountains, luxury farms on their terrain).
    """
    if state["owner"][cell] != seat:
        return "bunny_kingdom.rule.not_your_territory"
    if state["building"][cell] is not None:
        return "bunny_kingdom.rule.one_building"
    terrains = KINDS[kind_id].terrains
    if terrains and TERRAIN[cell] not in terrains:
        return "bunny_kingdom.rule.terrain"
    return None


def waiting_card(state: State, seat: int, kind_id: str) -> str:
    for card in state["waiting"][seat]:
        if kind_of(card).id == kind_id:
            return card
    raise IllegalAction("bunny_kingdom.rule.not_waiting",
                        f"you have no {kind_id} waiting to be built", card=kind_id)


def build(state: State, seat: int, kind_id: str, cells: list[int], events: list[Event]) -> None:
    """Place a waiting building: city, farm, trading post, or a sky tower pair."""
    card = waiting_card(state, seat, kind_id)
    for cell in cells:
        why = may_build_on(state, seat, kind_id, cell)
        if why:
            raise IllegalAction(why, f"{kind_id} may not be built on {COORDS[cell]}",
                                card=kind_id, coord=COORDS[cell])
    if kind_id == "sky_tower":
        a, b = cells
        index = fief_index(state, seat)
        if a == b or index[a] == index[b]:
            raise IllegalAction("bunny_kingdom.rule.tower_fiefs",
                                "a sky tower joins two territories of different fiefs",
                                a=COORDS[a], b=COORDS[b])
        state["towers"].append([a, b])
        events.append({"key": "bunny_kingdom.event.build.sky_tower", "seat": seat,
                       "a": COORDS[a], "b": COORDS[b], "pair": len(state["towers"])})
    else:
        events.append({"key": f"bunny_kingdom.event.build.{kind_id}", "seat": seat,
                       "coord": COORDS[cells[0]]})
    for cell in cells:
        state["building"][cell] = kind_id
    state["waiting"][seat].remove(card)
    state["discard"][seat].append(card)


def build_options(state: State, seat: int, first_only: bool = False) -> list[str]:
    """Legal ``build`` codes for the construction phase (not camps): each waiting kind on
    each territory where it may stand; sky towers on pairs in different fiefs."""
    kinds = sorted({kind_of(c).id for c in state["waiting"][seat]} - set(CAMPS))
    if not kinds:
        return []
    owner, building = state["owner"], state["building"]
    free = [i for i in range(CELLS) if owner[i] == seat and building[i] is None]
    if not free:
        return []
    out: list[str] = []
    for kind_id in kinds:
        if kind_id == "sky_tower":
            index = fief_index(state, seat)
            for a in free:
                for b in free:
                    if index[a] != index[b]:
                        out.append(f"build sky_tower {COORDS[a]} {COORDS[b]}")
                        if first_only:
                            return out
            continue
        terrains = KINDS[kind_id].terrains
        for i in free:
            if not terrains or TERRAIN[i] in terrains:
                out.append(f"build {kind_id} {COORDS[i]}")
                if first_only:
                    return out
    return out


def builders(state: State) -> list[int]:
    """Seats still building: not done and with at least one building they can place."""
    return [
        s for s in range(state["players"])
        if not state["done"][s] and build_options(state, s, first_only=True)
    ]


# --- harvest -------------------------------------------------------------------------------
def unchosen_posts(state: State, seat: int) -> list[int]:
    return [i for i in trading_posts(state, seat) if COORDS[i] not in state["posts"]]


def choose_post(state: State, seat: int, cell: int, resource: str, events: list[Event]) -> None:
    """*Торговий пост*: gives one basic resource of your choice each harvest."""
    if cell not in unchosen_posts(state, seat):
        raise IllegalAction("bunny_kingdom.rule.not_your_post",
                            f"{COORDS[cell]} is not a trading post of yours waiting for a choice",
                            coord=COORDS[cell])
    if resource not in BASIC_RESOURCES:
        raise IllegalAction("bunny_kingdom.rule.post_basic",
                            "a trading post gives wood, fish or carrots", resource=resource)
    state["posts"][COORDS[cell]] = resource
    events.append({"key": f"bunny_kingdom.event.trade.{resource}", "seat": seat,
                   "coord": COORDS[cell]})


def harvest(state: State, events: list[Event]) -> None:
    """*Фаза збирання врожаю*: each fief gives strength x wealth golden carrots."""
    record = []
    for seat in range(state["players"]):
        fs = harvest_fiefs(state, seat)
        total = sum(f.points for f in fs)
        for f in fs:
            if f.points:
                events.append({
                    "key": "bunny_kingdom.event.harvest_fief", "seat": seat,
                    "anchor": COORDS[f.cells[0]], "size": len(f.cells), "strength": f.strength,
                    "wealth": f.wealth, "points": f.points,
                })
        state["score"][seat] += total
        events.append({"key": "bunny_kingdom.event.harvest", "seat": seat,
                       "round": state["round"], "points": total, "total": state["score"][seat]})
        record.append([f.as_dict() for f in fs])
    state["harvests"].append(record)


# --- end of the game -----------------------------------------------------------------------
def reveal_scrolls(state: State, events: list[Event]) -> None:
    """After round 4 everyone reveals their parchments."""
    state["phase"] = "copy"
    events.append({
        "key": "bunny_kingdom.event.scrolls_revealed", "reveal": True,
        "scrolls": [sorted(s) for s in state["scrolls"]],
    })


def pending_copies(state: State, seat: int) -> list[str]:
    """Copy cards of the seat still to choose a target (only those with a target to copy)."""
    return [
        c for c in state["scrolls"][seat]
        if KINDS[c].scoring.get("type") == "copy" and c not in state["copies"][seat]
        and copy_targets(state, seat, c)
    ]


def choose_copy(state: State, seat: int, card: str, target: str, events: list[Event]) -> None:
    """Liberal/Socialist: copy a whole parchment of the right/left neighbour."""
    if card not in pending_copies(state, seat):
        raise IllegalAction("bunny_kingdom.rule.no_copy_card",
                            f"you have no {card} waiting to copy", card=card)
    if target not in copy_targets(state, seat, card):
        raise IllegalAction("bunny_kingdom.rule.copy_target",
                            f"{card} cannot copy {target}", card=card, target=target)
    state["copies"][seat][card] = target
    events.append({"key": f"bunny_kingdom.event.copy.{target}", "seat": seat, "card": card})


def finish(state: State, events: list[Event]) -> None:
    """Final scoring: every parchment's points, the Opportunist last; ties share victory."""
    result = final_scores(state)
    state["final"] = [[line.as_dict() for line in lines] for lines in result]
    state["phase"] = "over"
    totals = []
    for seat, lines in enumerate(result):
        for line in lines:  # each parchment's line names its player: the news says whose
            events.append({
                "key": "bunny_kingdom.event.scroll", "seat": seat, "points": line.points,
                "line": [scroll_key(line.card, line.kind), dict(line.params)],
            })
        totals.append(state["score"][seat] + sum(x.points for x in lines))
    best = max(totals)
    events.append({"key": "bunny_kingdom.event.game_over", "totals": totals,
                   "winners": [s for s, t in enumerate(totals) if t == best]})


def scroll_key(card: str, kind: str | None) -> str:
    """Score-line key of a parchment; a copy card is named by what it copied."""
    if kind is None:
        return f"bunny_kingdom.score.copy_nothing.{card}"
    if kind != card:
        return f"bunny_kingdom.score.copied.{kind}"
    return f"bunny_kingdom.score.scroll.{kind}"


# --- the phase machine ---------------------------------------------------------------------
def advance(state: State, events: list[Event]) -> None:
    """Move on while nobody has anything to do in the current phase."""
    while True:
        phase = state["phase"]
        if phase == "camps" and next_camp(state) is None:
            state["phase"] = "build"
        elif phase == "build" and not builders(state):
            state["phase"] = "trade"
            state["posts"] = {}  # a new choice each harvest
        elif phase == "trade" and not any(
            unchosen_posts(state, s) for s in range(state["players"])
        ):
            harvest(state, events)
            if state["round"] < ROUNDS:
                state["round"] += 1
                deal(state, events)
            else:
                reveal_scrolls(state, events)
        elif phase == "copy" and not any(
            pending_copies(state, s) for s in range(state["players"])
        ):
            finish(state, events)
        else:
            return
