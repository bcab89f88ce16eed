"""What is under the Dwóch następców landscape: both players, whose move it is and the
mover's resources, the reserve as a list from the shield, guild targets and Trading Post counts,
and every landscape building by name. Laid out once to measure (no canvas) and once to draw."""

from __future__ import annotations

from typing import Any

from render.canvas import Canvas, line_height, wrap
from render.common import INK, PAPER, min_icon_px
from render.dwoch_nastepcow.tiles import (
    ACTIVE_ROW,
    GRID,
    MARGIN,
    MINI,
    REACH,
    RESOURCE_COLOURS,
    ROW,
    TABLE,
    P,
    draw_craft_layout,
    draw_shield,
    draw_troop,
    effect_text,
    seat_name,
    tile_face,
)
from text.catalog import t


class Below:
    """Players, the mover's resources, the reserve as a list, guilds and Trading Posts."""

    def __init__(self, view: dict[str, Any], names: list[str], lang: str, width: int,
                 fs: int) -> None:
        self.view, self.names, self.lang, self.width, self.fs = view, names, lang, width, fs
        #: troops, badges and resource discs: phone-sized icons
        self.ip = min_icon_px(width)
        self.line = max(line_height(fs, True), self.ip) + 4

    def height(self) -> int:
        return self._lay(None, 0)

    def draw(self, canvas: Canvas, y: int) -> None:
        self._lay(canvas, y)

    def _lay(self, canvas: Canvas | None, y0: int) -> int:
        view, lang, fs, line = self.view, self.lang, self.fs, self.line
        x0, x1 = MARGIN, self.width - MARGIN
        y = y0
        over = view["phase"] == "over"
        for seat in (0, 1):
            active = not over and view["current"] == seat
            h = 2 * line + 8
            if canvas is not None:
                back = ACTIVE_ROW if active else ROW
                canvas.draw.rounded_rectangle(
                    (x0, y, x1, y + h), radius=8, fill=canvas.c(back),
                    outline=canvas.c(REACH if active else GRID), width=3 if active else 1)
                ip = self.ip
                draw_troop(canvas, (x0 + 8 + ip / 2, y + 4 + line / 2), seat, "normal", False,
                           ip / 2)
                canvas.text((x0 + 16 + ip, y + 4 + line / 2),
                            seat_name(view, self.names, seat, lang)[:22], fs, PAPER, back,
                            bold=True, anchor="lm")
                canvas.text((x1 - 10, y + 4 + line / 2),
                            t(lang, f"{P}render.points", n=view["scores"][seat]), fs + 2,
                            PAPER, back, bold=True, anchor="rm")
                sub = "  ·  ".join([
                    t(lang, f"{P}render.hand", n=view["hand_sizes"][seat]),
                    t(lang, f"{P}render.reach", n=view["reserve"]["reach"][seat]),
                ])
                box = canvas.text((x0 + 16 + ip, y + 4 + line * 1.5), sub, fs, PAPER, back,
                                  anchor="lm")
                home = [tr for tr in view["troops"][seat] if tr["at"] is None]
                for i, troop in enumerate(home):  # troops still in the reserve
                    draw_troop(canvas, (box[2] + 14 + ip / 2 + i * (ip + 8), y + 4 + line * 1.5),
                               seat, troop["kind"], troop["moved"], ip / 2)
            y += h + 6
        if over:
            ranking = view.get("ranking") or [[0, 1]]
            if len(ranking[0]) > 1:
                text = t(lang, f"{P}render.draw")
            else:
                text = t(lang, f"{P}render.winner",
                         name=seat_name(view, self.names, ranking[0][0], lang))
            y = self._words(canvas, f"{t(lang, f'{P}render.game_over')} · {text}", y, bold=True)
        else:
            mover = view["mover"]
            head = t(lang, f"{P}render.to_move", name=seat_name(view, self.names, mover["seat"], lang))
            if view["final_round"]:
                head += " · " + t(lang, f"{P}render.final_round")
            if view["phase"] == "siege":
                head += " · " + t(lang, f"{P}render.siege")
            elif view["phase"] == "discard":
                head += " · " + t(lang, f"{P}render.discard")
            y = self._words(canvas, head, y, bold=True)
            y = self._resources(canvas, mover, y)
        if view.get("removed"):
            y = self._words(canvas, t(lang, f"{P}render.removed", n=view["removed"]), y)
        y = self._reserve(canvas, y + 6)
        y = self._notes(canvas, y + 4)
        return y + MARGIN - y0

    def _words(self, canvas: Canvas | None, text: str, y: int, bold: bool = False,
               x: int = MARGIN, fill: tuple[int, int, int] = PAPER,
               back: tuple[int, int, int] = TABLE) -> int:
        for row in wrap(text, self.width - MARGIN - x, self.fs, bold):
            if canvas is not None:
                canvas.text((x, y + self.line / 2), row, self.fs, fill, back, bold=bold,
                            anchor="lm")
            y += self.line
        return y

    def _resources(self, canvas: Canvas | None, mover: dict[str, Any], y: int) -> int:
        fs, lang, ip = self.fs, self.lang, self.ip
        if canvas is not None:
            m = y + self.line / 2
            box = canvas.text((MARGIN, m), t(lang, f"{P}render.resources") + ":", fs, PAPER,
                              TABLE, anchor="lm")
            x = box[2] + 12
            for res in ("wood", "wheat", "stone"):
                canvas.icon("resource", ip)
                canvas.draw.ellipse((x, m - ip / 2, x + ip, m + ip / 2),
                                    fill=canvas.c(RESOURCE_COLOURS[res]), outline=canvas.c(INK))
                label = f"{t(lang, f'{P}resource.{res}')} {mover['resources'][res]}"
                box = canvas.text((x + ip + 5, m), label, fs, PAPER, TABLE, bold=True,
                                  anchor="lm")
                x = box[2] + 14
        y += self.line
        if mover["discounts"]:
            y = self._words(canvas, t(lang, f"{P}render.discounts", n=mover["discounts"]), y)
        return y

    def _reserve(self, canvas: Canvas | None, y: int) -> int:
        """The seven reserve places in order from the shield; reachable ones numbered."""
        view, lang, fs, line = self.view, self.lang, self.fs, self.line
        reserve = view["reserve"]
        head = f"{t(lang, f'{P}render.reserve')} · {t(lang, f'{P}render.stack', n=view['stack'])}"
        y = self._words(canvas, head, y, bold=True)
        in_reach = reserve["in_reach"][view["current"]] if view["to_act"] else []
        badge = max(fs + 8, self.ip)
        text_x = MARGIN + badge + 8 + MINI + 10
        for k in range(7):
            slot = (reserve["shield"] + k) % 7
            face = reserve["slots"][slot]
            lines = []
            if face is not None:
                building = t(lang, P + "building." + face["building"])
                lines = [f"{face['id']} · {building}"]
                lines += wrap(effect_text(face, lang), self.width - MARGIN - text_x
                              - (3 * fs + 8 if face.get("layout") else 0), fs)
            row_h = max(MINI if slot != reserve["shield"] and face is not None else badge + 4,
                        len(lines) * line, 3 * fs if face and face.get("layout") else 0) + 6
            if canvas is not None:
                mid = y + row_h / 2
                if slot == reserve["shield"]:
                    canvas.icon("shield", badge)
                    draw_shield(canvas, (MARGIN + badge / 2, mid), badge, reserve["crown"])
                elif slot in in_reach:
                    order = in_reach.index(slot) + 1
                    canvas.draw.ellipse((MARGIN, mid - badge / 2, MARGIN + badge, mid + badge / 2),
                                        fill=canvas.c(REACH), outline=canvas.c(INK))
                    canvas.text((MARGIN + badge / 2, mid), str(order), fs, INK, REACH,
                                bold=True, anchor="mm")
                if face is not None:
                    tx = MARGIN + badge + 8
                    canvas.paste(tile_face(face, lang, MINI, 0, id_key=False, detail="picture"),
                                 (tx, y + 3))
                    canvas.icon("tile", MINI)
                    if slot in in_reach:
                        canvas.draw.rectangle((tx - 3, y, tx + MINI + 2, y + MINI + 5),
                                              outline=canvas.c(REACH), width=3)
                    ty = y + 3
                    if face.get("layout"):  # the craft layout, large enough to read
                        draw_craft_layout(canvas, face["layout"], (self.width - MARGIN - 3 * fs, ty), fs)
                    for i, row in enumerate(lines):
                        canvas.text((text_x, ty + i * line), row, fs, PAPER, TABLE,
                                    bold=i == 0)
                elif slot != reserve["shield"]:
                    canvas.text((MARGIN + badge + 8, mid), "—", fs, PAPER, TABLE, anchor="lm")
            y += row_h
        return y

    def _notes(self, canvas: Canvas | None, y: int) -> int:
        """Guild targets and Trading Post counts of the buildings in the landscape, then
        which building each landscape id is."""
        view, lang = self.view, self.lang
        notes = [e for e in view["landscape"] if e["face"] == "up"
                 and e["building"] in ("guild", "trading_post")]
        for e in sorted(notes, key=lambda e: (e["owner"], e["cell"])):
            building = t(lang, P + "building." + e["building"])
            text = f"{e['cell']} {e['id']} {building}: {effect_text(e, lang)}"
            if canvas is not None:
                draw_troop(canvas, (MARGIN + self.ip / 2, y + self.line / 2), e["owner"],
                           "normal", False, self.ip / 2)
            y = self._words(canvas, text, y, x=MARGIN + self.ip + 8)
        # every building in the landscape by name, with the ids that show it: the tiles on
        # the board carry only their ids (a name does not fit a phone-sized cell)
        by_name: dict[str, list[str]] = {}
        for e in view["landscape"]:
            if e["face"] == "up":
                by_name.setdefault(t(lang, P + "building." + e["building"]), []).append(e["id"])
        for name in sorted(by_name):
            y = self._words(canvas, f"{name}: {', '.join(sorted(by_name[name]))}", y)
        return y
