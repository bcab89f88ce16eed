"""Messages as plain data: what to show for a session, in one language, with no Discord types.

The cogs turn a :class:`MessageSpec` into a Discord message (file + buttons). Everything
public here is built from the spectator view; private views only go to their own seat.
"""

from __future__ import annotations

import functools
import importlib
from datetime import UTC, datetime
from typing import Any

import engines
import render
from db.store import SessionRow
from session import ids
from session.clocks import Pace, deadline, left_text
from session.picker import ELLIPSIS, MENU_SIZE, MENUS, Choice, Step, step
from session.results import final_lines, places_inline
from session.seatnames import reader_row
from session.specs import MAX_BUTTONS, MAX_CONTENT, ButtonSpec, MessageSpec, SelectSpec, alt_text
from session.standings import RANKED_AFTER
from session.ties import tie_lines
from session.values import Notice
from session.wording import describe, names, text
from session.workers import off_loop
from text.catalog import lookup, t

#: a rating is shown in points, this many per unit of the model's ordinal
RATING_SCALE = 40
#: "Since your move: …" stays within about two lines of a phone's screen
SINCE_LIMIT = 200


def action_label(row: SessionRow, state: dict[str, Any], code: str, lang: str) -> str:
    """A move on its button, as an imperative ("Take Inn (TR2)", "End turn"): the catalog's
    ``do.<key>`` where the move's description reads as narration ("takes Inn (TR2)")."""
    key, params = engines.get(row.game_id).describe(state, code)
    button = f"do.{key}"
    return text(row.game_id, lang, row, button if lookup(lang, button) else key, params)


def token_label(game_id: str, lang: str, label: str) -> str:
    """A group's tokens ("pick fisher_king", "place T17 K27 … L28") in words: each token by
    the game's button text (``do.<game>.verb.<token>``), verb or term where it has one; a
    word after the first ("Build: Sky tower A1") so that no word needs another's case."""
    return f" {ELLIPSIS} ".join(_words(game_id, lang, part) for part in label.split(f" {ELLIPSIS} "))


def _words(game_id: str, lang: str, label: str) -> str:
    tokens = label.split()
    words = [lookup(lang, f"do.{game_id}.verb.{token}") or lookup(lang, f"{game_id}.verb.{token}")
             or lookup(lang, f"{game_id}.term.{token}") or token for token in tokens]
    if len(words) > 1 and words[0] != tokens[0]:
        return f"{words[0]}: " + " ".join(words[1:])
    return " ".join(words)


def choice_label(row: SessionRow, state: dict[str, Any], choice: Choice, lang: str) -> str:
    if choice.complete:
        label = action_label(row, state, choice.value, lang)
    else:  # a group: "…" says a choice follows
        label = token_label(row.game_id, lang, choice.label)
        label = label if ELLIPSIS in label else f"{label} {ELLIPSIS}"
    return label[:80]


def picker_title(row: SessionRow, current: Step, lang: str) -> str:
    """What the picker asks, with what was chosen so far: "Place a tile → T17 … → what next?"."""
    if not current.trail:
        return t(lang, "ui.pick_move")
    return t(lang, "picker.trail", trail=" → ".join(
        token_label(row.game_id, lang, label) for label in current.trail))


@functools.cache
def preview_module(game_id: str) -> Any | None:
    """``engines.<game>.preview`` when the game previews some moves before they are played.
    Cached: a module that is not there was searched for on disk again for every button of
    every board (4% of the event loop's time at 200 games, bench/bench_load.py)."""
    try:
        return importlib.import_module(f"engines.{game_id}.preview")
    except ImportError:
        return None


def previewed(game_id: str, code: str) -> bool:
    module = preview_module(game_id)
    return module is not None and bool(code.split()) and code.split()[0] in module.VERBS


def picker_message(row: SessionRow, state: dict[str, Any], codes: list[str], prefix: str,
                   lang: str) -> MessageSpec:
    """One step of choosing a move, privately: what was chosen so far, and the choices."""
    current = step(codes, prefix)
    return MessageSpec(picker_title(row, current, lang),
                       rows=step_rows(row, state, current, lang))


def picker_rows(
    row: SessionRow, state: dict[str, Any], codes: list[str], prefix: str, lang: str,
    menus: int = MENUS,
) -> list[list[ButtonSpec | SelectSpec]]:
    """The components for one step of choosing a move (buttons, or menus when many)."""
    return step_rows(row, state, step(codes, prefix, menus), lang)


def step_rows(row: SessionRow, state: dict[str, Any], current: Step, lang: str
              ) -> list[list[ButtonSpec | SelectSpec]]:
    if current.menus:  # whole moves in menus side by side, each named by what it holds
        rows: list[list[ButtonSpec | SelectSpec]] = []
        at = 0
        for n, (label, count) in enumerate(current.menus):
            part = current.choices[at:at + count]
            at += count
            rows.append([SelectSpec(
                ids.select(row.id, row.version, n),
                token_label(row.game_id, lang, label)[:150],
                [(choice_label(row, state, c, lang),
                  ids.select_value(c.value, not previewed(row.game_id, c.value))) for c in part])])
        return rows
    choices = current.choices[:MENU_SIZE]
    if not choices:
        return []
    if len(choices) <= MAX_BUTTONS:
        buttons: list[ButtonSpec | SelectSpec] = [
            ButtonSpec(
                ids.act(row.id, row.version, c.value)
                if c.complete and not previewed(row.game_id, c.value)
                else ids.pick(row.id, row.version, c.value),
                choice_label(row, state, c, lang),
                "primary" if c.complete else "secondary",
            )
            for c in choices
        ]
        return [buttons[i:i + 5] for i in range(0, len(buttons), 5)]
    options = [
        (choice_label(row, state, c, lang),
         ids.select_value(c.value, c.complete and not previewed(row.game_id, c.value)))
        for c in choices
    ]
    return [[SelectSpec(ids.select(row.id, row.version), t(lang, "ui.choose"), options)]]


async def preview_message(row: SessionRow, state: dict[str, Any], seat: int, code: str,
                          lang: str) -> MessageSpec:
    """What a move would do, as an image and words, with Confirm and Back buttons."""
    row = reader_row(row, lang)
    module = preview_module(row.game_id)
    assert module is not None, f"{row.game_id} previews no move"
    result = module.preview(state, seat, code)
    back = ButtonSpec(ids.pick(row.id, row.version, ""), t(lang, "ui.back"))
    if not result["legal"]:
        return MessageSpec(text(row.game_id, lang, row, result["error"], result["params"]),
                           rows=[[back]])
    lines = [t(lang, "ui.preview", action=describe(row, state, code, lang))]
    lines += [text(row.game_id, lang, row, key, params) for key, params in module.summary(result)]
    image = await off_loop(
        import_module_render(row.game_id).render_board, result["view"], names=names(row),
        lang=lang, highlight=result.get("highlight"))
    confirm = ButtonSpec(ids.act(row.id, row.version, code), t(lang, "ui.confirm"), "success")
    description = alt_text(lines)
    return MessageSpec(_clip(lines), image, filename="preview.png", rows=[[confirm, back]],
                       description=description)


def import_module_render(game_id: str) -> Any:
    return importlib.import_module(f"render.{game_id}")


def scores_line(row: SessionRow, totals: list[int], lang: str) -> str:
    return t(lang, "ui.scores", scores=" · ".join(
        f"{seat.name} {total}" for seat, total in zip(row.seats, totals, strict=False)))


async def board_image(row: SessionRow, view: dict[str, Any], lang: str) -> bytes:
    """Render off the event loop: Pillow work must not stall the bot's heartbeat."""
    return await off_loop(render.board_png, row.game_id, view, names=names(row), lang=lang)


def notices_text(row: SessionRow, notices: list[Notice], lang: str) -> list[str]:
    row = reader_row(row, lang)
    return [text(row.game_id, lang, row, n.key, n.params) for n in notices]


def _clip(lines: list[str], *, head: bool = False) -> str:
    """Lines within Discord's limit, whole lines only (a line is never cut): what does not
    fit is left out from the start (the latest news and whose move stay), or with ``head``
    from the end (the final results first), marked by a "…" line."""
    lines = [line for line in lines if line]
    kept: list[str] = []
    size = 0
    for line in lines if head else reversed(lines):
        if size + len(line) + 1 > MAX_CONTENT - 2:
            kept.append("…")
            break
        kept.append(line)
        size += len(line) + 1
    content = "\n".join(kept if head else reversed(kept))
    return content if len(content) <= MAX_CONTENT else content[:MAX_CONTENT - 1] + "…"


def turn_rows(
    row: SessionRow, state: dict[str, Any], to_act: list[int], lang: str
) -> list[list[ButtonSpec | SelectSpec]]:
    """Components of the channel's turn message. Only public choices appear inline."""
    game = engines.get(row.game_id)
    tools: list[ButtonSpec | SelectSpec] = []
    rows: list[list[ButtonSpec | SelectSpec]] = []
    if game.meta.hidden_information or len(to_act) != 1:
        tools.append(ButtonSpec(ids.pick(row.id, row.version, ""), t(lang, "ui.my_move"), "primary"))
    else:
        # four rows at most: the fifth is for the tools
        rows = picker_rows(row, state, game.legal_actions(state, to_act[0]), "", lang,
                           menus=4)[:4]
    if game.meta.hidden_information:
        tools.append(ButtonSpec(ids.hand(row.id), t(lang, "ui.my_hand")))
    if row.version > 0:
        tools.append(ButtonSpec(ids.undo(row.id), t(lang, "ui.undo")))
    return rows + ([tools] if tools else [])


def timestamp(when: datetime, style: str = "R") -> str:
    """A moment as a Discord timestamp, shown in each reader's own time zone and language and
    always current ("in 3 hours"); ``R`` relative, ``f`` date and time, ``both`` the two."""
    unix = int(when.timestamp())
    if style == "both":
        return f"<t:{unix}:R> (<t:{unix}:f>)"
    return f"<t:{unix}:{style}>"


def clock_line(row: SessionRow, now: datetime, lang: str) -> str:
    """Each human player's time ('⏱ Ala ⏳ <t:…:R> · Bo 1d 0h'): the running clock as the
    moment it runs out (a Discord timestamp: never stale), the others' banks as they stand
    (they do not run); empty without a pace. ``now`` is unused since the deadline is shown."""
    del now
    if not Pace.from_json(row.pace_json).timed:
        return ""
    parts = []
    for seat in row.seats:
        if seat.bank is None:
            continue
        if seat.running_since is not None:
            runs_out = deadline(seat.bank, datetime.fromisoformat(seat.running_since))
            parts.append(f"{seat.name} ⏳ {timestamp(runs_out)}")
        else:
            parts.append(f"{seat.name} {left_text(seat.bank)}")
    return t(lang, "ui.clocks", clocks=" · ".join(parts)) if parts else ""


async def turn_message(
    row: SessionRow, state: dict[str, Any], notices: list[Notice], lang: str,
    now: datetime | None = None, *, public: dict[str, Any] | None = None,
    to_act: list[int] | None = None,
) -> MessageSpec:
    """The message posted in the channel after every turn: board image, news, whose move.
    ``public`` and ``to_act``: the spectator view and the seats to act, when the change that
    produced ``state`` already worked them out (:class:`Outcome`)."""
    row = reader_row(row, lang)
    game = engines.get(row.game_id)
    view = game.view(state, None) if public is None else public
    lines = notices_text(row, notices, lang)
    totals = game.totals(state)
    if row.status == "active":
        to_act = game.to_act(state) if to_act is None else to_act
        who = ", ".join(row.seats[s].name + ("" if row.seats[s].user_id is None
                                             else f" (<@{row.seats[s].user_id}>)")
                        for s in to_act)
        lines.append(t(lang, "ui.to_move", players=who))
        lines.append(scores_line(row, totals, lang))
        lines.append(clock_line(row, now or datetime.now(UTC), lang))
        if row.version == 0:  # the first board says in one line how to make a move
            lines.append(t(lang, "ui.first_move_hint"))
        rows = turn_rows(row, state, to_act, lang)
    else:  # the result first; the last move's news after it, as many whole lines as fit
        lines = final_lines(row, lang) + lines
        rows = [[ButtonSpec(ids.rematch(row.id), t(lang, "ui.rematch"), "success")]]
    return MessageSpec(_clip(lines, head=row.status != "active"),
                       await board_image(row, view, lang), rows=rows,
                       description=board_description(row, state, notices, lang))


def board_description(row: SessionRow, state: dict[str, Any], notices: list[Notice],
                      lang: str) -> str:
    """The board in words: the game, what just happened, whose move it is and the scores
    (or the final places). Built from public notices and totals only, like the board."""
    row = reader_row(row, lang)
    game = engines.get(row.game_id)
    parts = [t(lang, "alt.board", game=t(lang, f"game.{row.game_id}"))]
    news = [line for line in notices_text(row, notices, lang) if line]
    if news:
        parts.append(t(lang, "alt.news", news=" ".join(news)))
    standings = " · ".join(f"{seat.name} {total}"
                           for seat, total in zip(row.seats, game.totals(state), strict=False))
    if row.status == "active":
        to_act = ", ".join(row.seats[s].name for s in game.to_act(state))
        parts.append(t(lang, "alt.to_move", players=to_act))
        parts.append(t(lang, "alt.scores", scores=standings))
    elif row.result and row.status != "abandoned":
        # the result opens the alt text: a long game's news can only push the end out
        parts = [t(lang, "ending.alt_final", places=places_inline(row, lang)),
                 *tie_lines(row, lang), *parts]
    else:
        parts.insert(0, t(lang, "alt.final", scores=standings))
    return alt_text(parts)


def pace_description(pace_json: str, lang: str) -> str:
    """'5 min per move', '1 d per move, banked up to 3 d', or no clock."""
    pace = Pace.from_json(pace_json)
    if pace.kind == "realtime":
        return t(lang, "ui.pace_realtime", minutes=f"{pace.per_move / 60:g}")
    if pace.kind == "daily":
        return t(lang, "ui.pace_daily", days=f"{pace.increment / 86400:g}",
                 cap=f"{pace.cap / 86400:g}")
    return t(lang, "ui.pace_none")


def lobby_message(row: SessionRow, notices: list[Notice], lang: str) -> MessageSpec:
    """Game, variants (by their names), seats and pace, with Join/Start/Leave."""
    row = reader_row(row, lang)
    lines = notices_text(row, notices, lang)
    variants = ", ".join(t(lang, f"{row.game_id}.variant.{v}")
                         for v in row.options.get("variants", [])) or "-"
    lines.append(t(lang, "ui.lobby", game=t(lang, f"game.{row.game_id}"),
                   seated=", ".join(names(row)), count=len(row.seats), players=row.players,
                   variants=variants))
    lines.append(t(lang, "ui.lobby_pace", pace=pace_description(row.pace_json, lang)))
    rows: list[list[ButtonSpec | SelectSpec]] = []
    if row.status == "lobby" and len(row.seats) < row.players:
        lines.append(t(lang, "ui.lobby_waiting", count=row.players - len(row.seats)))
    pings = [u for n in notices for u in n.params.get("ping", [])]
    if row.status == "lobby":
        rows = [[ButtonSpec(ids.lobby(row.id, "join"), t(lang, "ui.join"), "success"),
                 ButtonSpec(ids.lobby(row.id, "start"), t(lang, "ui.start"), "primary"),
                 ButtonSpec(ids.lobby(row.id, "leave"), t(lang, "ui.leave"), "secondary")]]
    return MessageSpec(_clip(lines), rows=rows, pings=pings)


async def hand_message(
    row: SessionRow, state: dict[str, Any], seat: int, lang: str, *, since: str = ""
) -> MessageSpec:
    """A seat's private view: for that seat's eyes only (DM or ephemeral). Its first line says
    what it is ("Your move in Bunny Kingdom, #games"): a phone's notification preview shows
    just that; ``since``: what changed while the player was away (:func:`since_line`)."""
    row = reader_row(row, lang)
    state_view = engines.get(row.game_id).view(state, seat)
    image = await off_loop(render.hand_png, row.game_id, state_view, names=names(row), lang=lang)
    game = engines.get(row.game_id)
    to_act = game.to_act(state) if row.status == "active" else []
    name = t(lang, f"game.{row.game_id}")
    if seat in to_act:
        first = t(lang, "ui.hand_your_move", game=name, channel=row.channel_id)
    else:
        first = t(lang, "ui.hand_waiting", game=name, channel=row.channel_id,
                  players=", ".join(row.seats[s].name for s in to_act) or "—")
    content = "\n".join(line for line in (first, since, t(lang, "ui.hand_only_you")) if line)
    description = alt_text([
        t(lang, "alt.hand", game=t(lang, f"game.{row.game_id}"), player=row.seats[seat].name),
        t(lang, "alt.to_move", players=", ".join(row.seats[s].name for s in game.to_act(state)))
        if row.status == "active" else "",
    ])
    return MessageSpec(content, image, filename="hand.png", description=description,
                       rows=[[ButtonSpec(ids.pick(row.id, row.version, ""), t(lang, "ui.my_move"),
                                         "primary")]])



def since_line(row: SessionRow, notices: list[Notice], lang: str) -> str:
    """What the others did since a player's last move, in one or two lines (the newest
    events when there are more); empty when nothing happened."""
    lines = [line.rstrip(".") for line in notices_text(row, notices, lang) if line]
    if not lines:
        return ""
    text_ = t(lang, "ui.since_your_move", events="; ".join(lines) + ".")
    while len(text_) > SINCE_LIMIT and len(lines) > 1:
        lines = lines[1:]
        text_ = t(lang, "ui.since_your_move", events="… " + "; ".join(lines) + ".")
    return text_ if len(text_) <= SINCE_LIMIT else text_[:SINCE_LIMIT - 1] + "…"


def link(row: SessionRow) -> str:
    """A jump link to the game's turn message (or its channel)."""
    guild = row.guild_id if row.guild_id is not None else "@me"
    tail = f"/{row.turn_message_id}" if row.turn_message_id else ""
    return f"https://discord.com/channels/{guild}/{row.channel_id}{tail}"


def mention(row: SessionRow, seat: int) -> str:
    user = row.seats[seat].user_id
    return f"<@{user}>" if user is not None else row.seats[seat].name


def timer_message(event: Any, lang: str) -> MessageSpec | None:
    """What a fired timer shows in the channel: one message per event, never more."""
    row = reader_row(event.session, lang)
    game = t(lang, f"game.{row.game_id}")
    if event.kind in ("remind", "last_call", "ping"):
        seats = event.params.get("seats") or [(event.seat, event.params.get("left"))]
        players = ", ".join(mention(row, seat) for seat, _ in seats)
        lefts = [left for _, left in seats if left is not None]
        if event.kind == "ping" or not lefts:  # a held-back turn ping; untimed reminders
            key = "ui.turn_ping" if event.kind == "ping" else "ui.remind_untimed"
            return MessageSpec(t(lang, key, player=players, game=game, link=link(row)))
        runs_out = [deadline(x.bank, datetime.fromisoformat(x.running_since))
                    for x in (row.seats[seat] for seat, _ in seats)
                    if x.bank is not None and x.running_since is not None]
        return MessageSpec(t(lang, f"ui.{event.kind}", player=players, game=game,
                             deadline=timestamp(min(runs_out), "both") if runs_out
                             else left_text(min(lefts)), link=link(row)))
    if event.kind in ("timeout", "absent"):
        topic = f"timeout:{event.seat}"
        buttons: list[ButtonSpec | SelectSpec] = [
            ButtonSpec(ids.vote(row.id, topic, choice), t(lang, f"vote.{choice}"),
                              "danger" if choice == "computer" else "secondary")
                   for choice in ("skip", "computer", "wait")]
        key = "ui.timeout" if event.kind == "timeout" else "ui.absent"
        return MessageSpec(t(lang, key, player=row.seats[event.seat].name, game=game,
                             mention=mention(row, event.seat)), rows=[buttons])
    if event.kind == "idle_warn":
        return MessageSpec(t(lang, "ui.idle_warn", game=game, id=row.id,
                             days=event.params.get("days", 30)))
    if event.kind == "archived":
        return MessageSpec("\n".join([t(lang, "ui.archived", game=game, id=row.id),
                                      *final_lines(row, lang)]))
    return None


def abandon_question(row: SessionRow, lang: str, *, forfeit: bool) -> MessageSpec:
    """Are you sure? (a running game the asker plays in counts as their loss)."""
    key = "ui.abandon_ask_loss" if forfeit else "ui.abandon_ask"
    return MessageSpec(t(lang, key, game=t(lang, f"game.{row.game_id}"), id=row.id), rows=[[
        ButtonSpec(ids.abandon(row.id, row.version), t(lang, "ui.abandon_yes"), "danger")]])


async def howto_message(game_id: str, lang: str) -> MessageSpec:
    """How to play one game here (buttons first, typed codes second) with an example board:
    the spectator view of a fresh two-seat (or smallest) game."""
    game = engines.get(game_id)
    players = max(game.meta.min_players, 2)
    view = game.view(game.setup(players, {"variants": []}, 1), None)
    seats = [t(lang, "ui.computer_name", n=n + 1) for n in range(players)]
    image = await off_loop(render.board_png, game_id, view, names=seats, lang=lang)
    return MessageSpec(_clip([t(lang, f"howto.{game_id}"), t(lang, "ui.howto_example")]), image,
                       filename="example.png", description=alt_text([
                           t(lang, "ending.alt_howto", game=t(lang, f"game.{game_id}"))]))


def end_vote_message(row: SessionRow, lang: str) -> MessageSpec:
    return MessageSpec(t(lang, "ui.end_vote", game=t(lang, f"game.{row.game_id}")), rows=[[
        ButtonSpec(ids.vote(row.id, "end", "yes"), t(lang, "vote.yes"), "danger"),
        ButtonSpec(ids.vote(row.id, "end", "no"), t(lang, "vote.no"))]])


def mine_text(entries: list[dict[str, Any]], lang: str) -> str:
    if not entries:
        return t(lang, "ui.mine_empty")
    lines = [t(lang, "ui.mine_title")]
    for entry in entries:
        row = entry["session"]
        if entry.get("damaged") or row is None:
            lines.append(t(lang, "ui.mine_damaged", game=t(lang, f"game.{entry['game_id']}"),
                           id=entry["id"]))
            continue
        who = ", ".join(row.seats[s].name for s in entry["to_act"]) or "-"
        key = "ui.mine_line_you" if entry["my_turn"] else "ui.mine_line"
        lines.append(t(lang, key, game=t(lang, f"game.{row.game_id}"), id=row.id,
                       players=who, link=link(row), status=t(lang, f"ui.status_{row.status}")))
    return _clip(lines)


def stats_text(name: str, stats: dict[str, dict[str, Any]], lang: str) -> str:
    if not stats:
        return t(lang, "ui.stats_empty", player=name)
    lines = [t(lang, "ui.stats_title", player=name)]
    for key in sorted(stats):
        scope, game_id = key.split(":", 1)
        entry = stats[key]
        line = t(lang, "ui.standings_stats_line", scope=t(lang, f"ui.scope_{scope}"),
                 game=t(lang, f"game.{game_id}"), games=entry["games"], wins=entry["wins"],
                 abandoned=entry["abandoned"], average=entry["average"])
        # shown once the player could be on the leaderboard: before that the number says little
        rated = entry.get("rated", 0)
        if entry.get("rating") is not None and rated >= RANKED_AFTER:
            line += t(lang, "ui.standings_stats_rating", rating=rating_points(entry["rating"]))
        elif rated:
            line += t(lang, "ui.standings_stats_unrated", count=RANKED_AFTER - rated)
        lines.append(line)
    return _clip(lines)


def rating_points(ordinal: float) -> int:
    """A rating as people read one: the model's ordinal (a skill the player very likely has
    at least, 0 for a newcomer, negative after early losses) in whole points, never below
    zero (RATING_SCALE points per unit, so a strong player is near a thousand)."""
    return round(max(0.0, ordinal) * RATING_SCALE)


def leaderboard_text(game_id: str, board: list[tuple[int, float, int]], lang: str, *,
                     everywhere: bool = False) -> str:
    scope = "everywhere" if everywhere else "server"
    game = t(lang, f"game.{game_id}")
    if not board:
        return t(lang, f"ui.standings_empty_{scope}", game=game)
    lines = [t(lang, f"ui.standings_title_{scope}", game=game)]
    for place, (user, rating, games) in enumerate(board, 1):
        lines.append(t(lang, "ui.standings_line", place=place, player=f"<@{user}>",
                       rating=rating_points(rating), games=games))
    return _clip(lines)
