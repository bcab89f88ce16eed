"""The panel under the Gheos map: epoch, turn and bag, whose step it is and what a pending
choice waits for, every player (seat mark, name, points, tokens, tiles in hand, followers), the
supply, every continent with its symbols, and the symbol legend. Laid out once to measure its
height (no canvas) and once to draw it."""

from __future__ import annotations

from typing import Any

from render.canvas import Canvas, line_height, seat_mark, text_width
from render.common import INK, PAPER, min_icon_px
from render.gheos.tiles import (
    ACTIVE_BOX,
    ALERT,
    BOX,
    CIV_ORDER,
    CIV_RGB,
    EMPTY_TOKEN,
    EPOCH,
    GOLD,
    GREY,
    MARGIN,
    WHITE,
    WINNER,
    icon_pixels,
    parse_cell,
)
from text.catalog import t


class _Flow:
    """Items laid left to right, wrapping at the right edge; measures without a canvas."""

    def __init__(self, canvas: Canvas | None, x0: int, x1: int, y: int, line: int) -> None:
        self.canvas, self.x0, self.x1, self.line = canvas, x0, x1, line
        self.x, self.y = x0, y

    def item(self, width: int, draw: Any = None, gap: int = 10) -> None:
        if self.x > self.x0 and self.x + width > self.x1:
            self.newline()
        if self.canvas is not None and draw is not None:
            draw(self.canvas, self.x, self.y)
        self.x += width + gap

    def text(self, text: str, size: int, fill: tuple[int, int, int], back: tuple[int, int, int],
             bold: bool = False, gap: int = 10) -> None:
        self.item(text_width(text, size, bold), lambda c, x, y: c.text(
            (x, y + self.line / 2), text, size, fill, back, bold=bold, anchor="lm"), gap)

    def newline(self, extra: int = 0) -> None:
        self.x, self.y = self.x0, self.y + self.line + extra

    def end(self) -> int:
        """The y under the last line."""
        return self.y + (self.line if self.x > self.x0 else 0)


class Panel:
    """Epoch, step, players, supply, continents and the symbol legend, ``width`` wide."""

    def __init__(self, view: dict[str, Any], names: list[str], lang: str, width: int,
                 fs: int) -> None:
        self.view, self.names, self.lang, self.width, self.fs = view, names, lang, width, fs
        #: tokens, discs, cubes, symbols and seat marks: phone-sized icons
        self.ip = min_icon_px(width)
        self.line = max(line_height(fs, True), self.ip) + 6

    def height(self) -> int:
        return self._lay(None, 0)

    def draw(self, canvas: Canvas, y: int) -> None:
        self._lay(canvas, y)

    def _name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"#{seat + 1}"

    def _lay(self, canvas: Canvas | None, y0: int) -> int:
        view = self.view
        flow = _Flow(canvas, MARGIN, self.width - MARGIN, y0, self.line)
        self._heading(flow)
        y = flow.end() + 6
        for seat in view["seats"]:
            y = self._seat(canvas, seat, y,
                           active=seat["seat"] == view["turn"] and not view.get("over"))
        y = self._supply(canvas, y)
        y = self._continents(canvas, y)
        flow = _Flow(canvas, MARGIN, self.width - MARGIN, y, self.line)
        self._legend(flow)
        return flow.end() + MARGIN - y0

    def _heading(self, flow: _Flow) -> None:
        """Epoch, turn and bag; whose step it is; what a pending choice waits for; markers
        waiting for new land; the winner."""
        view, lang, fs = self.view, self.lang, self.fs
        flow.text("Gheos", fs + 4, INK, PAPER, bold=True, gap=16)
        flow.text(t(lang, "gheos.ui.epochs", n=view["epochs"], last=view["last_epoch"]), fs,
                  EPOCH, PAPER, bold=True, gap=16)
        flow.text(t(lang, "gheos.ui.turn", n=view["turn_no"]), fs, INK, PAPER, gap=16)
        flow.text(t(lang, "gheos.ui.bag", n=view["bag"]), fs, INK, PAPER)
        flow.newline()
        turn = view["turn"]
        for word in t(lang, f"gheos.ui.step_{view['phase']}", player=self._name(turn)).split():
            flow.text(word, fs, INK, PAPER, bold=True, gap=text_width(" ", fs, True))
        flow.newline()
        pend = view.get("pending")
        if pend:
            for word in pending_line(pend, self._name(turn), lang).split():
                flow.text(word, fs, ALERT, PAPER, gap=text_width(" ", fs))
            flow.newline()
        lifted = [c["civ"] for c in view["civs"] if c.get("migrating")]
        if lifted:  # markers lifted off a split continent, waiting for their new land
            for civ in lifted:
                flow.item(self.ip, _disc(civ, self.ip, fs), gap=4)
            flow.text(t(lang, "gheos.ui.migrating"), fs, ALERT, PAPER)
            flow.newline()
        if view.get("over") and view.get("ranking"):
            first = view["ranking"][0]
            key = "gheos.ui.winner" if len(first) == 1 else "gheos.ui.draw"
            flow.text(t(lang, key, players=", ".join(self._name(s) for s in first)), fs,
                      WINNER, PAPER, bold=True)
            flow.newline()

    def _supply(self, canvas: Canvas | None, y: int) -> int:
        """The supply: a ring for a civilization not on the board, a disc for one that is."""
        view, fs, ip = self.view, self.fs, self.ip
        flow = _Flow(canvas, MARGIN, self.width - MARGIN, y + 4, self.line)
        flow.text(t(self.lang, "gheos.ui.supply") + ":", fs, INK, PAPER, bold=True)
        on_board = {c["civ"] for c in view["civs"]}
        for civ in CIV_ORDER:
            n = str(view["supply"].get(civ, 0))
            flow.item(ip + 4 + ip + 3 + text_width(n, fs),
                      _supply(civ, civ in on_board, n, fs, ip), gap=14)
        return flow.end() + 8

    def _continents(self, canvas: Canvas | None, y: int) -> int:
        """Every continent: its civilization (or an empty ring) and its symbols."""
        fs, x0, x1 = self.fs, MARGIN, self.width - MARGIN
        conts = [r for r in self.view["regions"] if r["kind"] == "continent"]
        conts.sort(key=lambda r: (r["civ"] is None, parse_cell(r["label"])[1],
                                  parse_cell(r["label"])[0]))
        big = max(fs + 4, self.ip)
        cell_w = big + 6 + text_width("W30", fs, True) + 8 + 4 * (big + 2 + text_width("00", fs) + 8)
        cols = max(1, (x1 - x0) // cell_w)
        for i, r in enumerate(conts):
            cx = x0 + (i % cols) * ((x1 - x0) // cols)
            cy = y + (i // cols) * self.line
            if canvas is not None:
                _continent(canvas, r, cx, cy, self.line, fs, self.ip)
        return y + -(-len(conts) // cols) * self.line + 6

    def _legend(self, flow: _Flow) -> None:
        fs = self.fs
        for sym in ("wheat", "chalice", "swords", "pyramid", "temple_swords"):
            word = t(self.lang,
                     "gheos.ui.temple" if sym.startswith("temple") else f"gheos.term.{sym}")
            flow.item(max(fs + 4, self.ip) + 4 + text_width(word, fs),
                      _legend(sym, word, fs, self.line, self.ip), gap=16)

    def _seat(self, canvas: Canvas | None, seat: dict[str, Any], y: int, active: bool) -> int:
        fs, x0, x1 = self.fs, MARGIN, self.width - MARGIN
        s = seat["seat"]
        inner = _Flow(None, x0 + 8, x1 - 8, y + 4 + self.line, self.line)
        self._seat_details(inner, seat)
        bottom = inner.end() + 4
        if canvas is None:
            return bottom + 6
        back = ACTIVE_BOX if active else BOX
        canvas.draw.rounded_rectangle((x0, y, x1, bottom), radius=6, fill=canvas.c(back),
                                      outline=canvas.c(INK), width=3 if active else 1)
        mid = y + 4 + self.line / 2
        seat_mark(canvas, s, (x0 + 8 + self.ip / 2, mid), self.ip / 2, outline_only=True)
        canvas.text((x0 + 16 + self.ip, mid), self._name(s)[:24], fs, INK, back, bold=True,
                    anchor="lm")
        canvas.text((x1 - 8, mid), t(self.lang, "gheos.ui.points", n=seat["score"]), fs, INK,
                    back, bold=True, anchor="rm")
        self._seat_details(_Flow(canvas, x0 + 8, x1 - 8, y + 4 + self.line, self.line), seat,
                           back)
        return bottom + 6

    def _seat_details(self, flow: _Flow, seat: dict[str, Any], back: tuple = BOX) -> None:
        """Scoring tokens left, tiles in hand (face down), followers per civilization."""
        fs, ip = self.fs, self.ip
        word = t(self.lang, "gheos.ui.tokens")
        flow.item(3 * (ip + 3) + 4 + text_width(word, fs), _tokens(seat["tokens"], word, fs,
                                                                   back, ip), gap=18)
        flow.item(max(1, seat["hand"]) * (ip + 3), _hand(seat["hand"], fs, ip), gap=18)
        if not seat["followers"]:
            flow.text("—", fs, INK, back)
        for civ in CIV_ORDER:
            n = seat["followers"].get(civ, 0)
            if n:
                flow.item(ip + 3 + text_width(str(n), fs), _cube(civ, str(n), fs, back, ip),
                          gap=12)


def _disc(civ: str, ip: int, fs: int) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs, ip) / 2
        c.icon("civilization", ip)
        c.draw.ellipse((x, m - ip / 2, x + ip, m + ip / 2), fill=c.c(CIV_RGB[civ]),
                       outline=c.c(INK), width=2)
    return draw


def c_line(fs: int, ip: int) -> int:
    return max(line_height(fs, True), ip) + 6


def _cube(civ: str, n: str, fs: int, back: tuple, ip: int) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs, ip) / 2
        k = ip / 2
        c.icon("follower", ip)
        c.draw.rectangle((x, m - k, x + 2 * k, m + k), fill=c.c(CIV_RGB[civ]),
                         outline=c.c(INK), width=1)
        c.text((x + ip + 3, m), n, fs, INK, back, anchor="lm")
    return draw


def _supply(civ: str, on_board: bool, n: str, fs: int, ip: int) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs, ip) / 2
        r = ip / 2
        c.icon("civilization", ip)
        if on_board:
            c.draw.ellipse((x, m - r, x + 2 * r, m + r), fill=c.c(CIV_RGB[civ]),
                           outline=c.c(INK), width=1)
        else:
            c.draw.ellipse((x, m - r, x + 2 * r, m + r), fill=c.c(PAPER),
                           outline=c.c(CIV_RGB[civ] if civ != "white" else INK), width=2)
        _cube(civ, n, fs, PAPER, ip)(c, x + ip + 4, y)
    return draw


def _tokens(n: int, word: str, fs: int, back: tuple, ip: int) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs, ip) / 2
        r = ip / 2
        for i in range(3):
            fill = GOLD if i < n else EMPTY_TOKEN
            cx = x + i * (ip + 3) + r
            c.icon("token", ip)
            c.draw.ellipse((cx - r, m - r, cx + r, m + r), fill=c.c(fill), outline=c.c(INK))
        c.text((x + 3 * (ip + 3) + 4, m), word, fs, INK, back, anchor="lm")
    return draw


def _hand(n: int, fs: int, ip: int) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs, ip) / 2
        for i in range(n):
            bx = x + i * (ip + 3)
            c.icon("tile", ip)
            c.draw.polygon([(bx, m + ip * 0.45), (bx + ip / 2, m - ip * 0.45),
                            (bx + ip, m + ip * 0.45)], fill=c.c(WHITE), outline=c.c(INK))
    return draw


def _legend(sym: str, word: str, fs: int, line: int, ip: int) -> Any:
    big = max(fs + 4, ip)

    def draw(c: Canvas, x: int, y: int) -> None:
        c.paste(icon_pixels(sym, big), (x, y + (line - big) / 2))
        c.icon("symbol", big)
        c.text((x + big + 4, y + line / 2), word, fs, INK, PAPER, anchor="lm")
    return draw


def _continent(canvas: Canvas, r: dict[str, Any], x: int, y: int, line: int, fs: int,
               ip: int) -> None:
    m = y + line / 2
    big = max(fs + 4, ip)
    canvas.icon("civilization", ip)
    if r["civ"]:
        canvas.draw.ellipse((x, m - ip / 2, x + ip, m + ip / 2), fill=canvas.c(CIV_RGB[r["civ"]]),
                            outline=canvas.c(INK), width=2)
    else:
        canvas.draw.ellipse((x, m - ip / 2, x + ip, m + ip / 2), outline=canvas.c(GREY), width=2)
    canvas.text((x + ip + 6, m), r["label"], fs, INK, PAPER, bold=True, anchor="lm")
    cx = x + ip + 6 + text_width("W30", fs, True) + 8
    for sym in ("wheat", "chalice", "swords", "pyramid"):
        canvas.paste(icon_pixels(sym, big), (cx, m - big / 2))
        canvas.icon("symbol", big)
        canvas.text((cx + big + 2, m), str(r[sym]), fs, INK, PAPER, anchor="lm")
        cx += big + 2 + text_width("00", fs) + 8


def pending_line(pend: dict[str, Any], who: str, lang: str) -> str:
    kind = pend.get("type")
    if kind == "pay":
        return t(lang, "gheos.ui.pending_pay", player=who)
    if kind == "migrate":
        return t(lang, "gheos.ui.pending_migrate", civ=t(lang, f"gheos.term.{pend['civ']}"),
                 options=", ".join(pend["options"]))
    if kind == "war":
        return t(lang, "gheos.ui.pending_war", cell=pend.get("cell", ""),
                 options=", ".join(t(lang, f"gheos.term.{c}") for c in pend["options"]))
    return ""
