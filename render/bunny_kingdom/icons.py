"""Bunny Kingdom icons (resources, cities, buildings, cards), drawn large and shrunk, cached."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.bunny_kingdom.style import (
    CAMP_DARK,
    GOLD,
    INGOT_TEXT,
    INGOTS,
    LUXURY,
    PROVISIONS,
    SCALE,
    TERRAIN_COLOURS,
    TOWER,
    WHITE,
)
from render.common import font


@lru_cache(maxsize=64)
def resource_icon(resource: str, px: int) -> Image.Image:
    """A small picture of a resource, ``px`` square, transparent background."""
    s = px * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    w = max(1, SCALE)
    if resource == "wood":
        d.rectangle((s * 0.43, s * 0.65, s * 0.57, s * 0.95), fill=(110, 70, 30))
        d.polygon([(s * 0.5, s * 0.05), (s * 0.88, s * 0.72), (s * 0.12, s * 0.72)],
                  fill=(20, 90, 30), outline=(10, 40, 10), width=w)
    elif resource == "fish":
        d.ellipse((s * 0.08, s * 0.3, s * 0.72, s * 0.7), fill=(200, 225, 245),
                  outline=(20, 60, 110), width=w)
        d.polygon([(s * 0.68, s * 0.5), (s * 0.95, s * 0.28), (s * 0.95, s * 0.72)],
                  fill=(200, 225, 245), outline=(20, 60, 110), width=w)
        d.ellipse((s * 0.2, s * 0.42, s * 0.28, s * 0.5), fill=(20, 40, 70))
    elif resource == "carrots":
        d.polygon([(s * 0.3, s * 0.3), (s * 0.7, s * 0.3), (s * 0.5, s * 0.97)],
                  fill=(240, 120, 20), outline=(120, 50, 0), width=w)
        for dx in (-0.12, 0, 0.12):
            d.line((s * 0.5, s * 0.32, s * (0.5 + dx), s * 0.05), fill=(40, 140, 40), width=w * 3)
    elif resource == "pearl":
        d.ellipse((s * 0.18, s * 0.18, s * 0.82, s * 0.82), fill=(248, 244, 236),
                  outline=(120, 110, 140), width=w * 2)
        d.ellipse((s * 0.32, s * 0.3, s * 0.45, s * 0.43), fill=(255, 255, 255))
    elif resource == "mushroom":
        d.rectangle((s * 0.4, s * 0.45, s * 0.6, s * 0.92), fill=(245, 235, 215),
                    outline=(90, 70, 50), width=w)
        d.pieslice((s * 0.08, s * 0.1, s * 0.92, s * 0.85), 180, 360, fill=(210, 40, 40),
                   outline=(90, 20, 20), width=w)
        d.ellipse((s * 0.3, s * 0.25, s * 0.4, s * 0.35), fill=(255, 255, 255))
        d.ellipse((s * 0.58, s * 0.2, s * 0.68, s * 0.3), fill=(255, 255, 255))
    elif resource == "spices":
        d.polygon([(s * 0.1, s * 0.9), (s * 0.5, s * 0.25), (s * 0.9, s * 0.9)],
                  fill=(190, 80, 30), outline=(90, 30, 10), width=w)
        for x, y in ((0.4, 0.65), (0.55, 0.55), (0.6, 0.78), (0.35, 0.82)):
            d.ellipse((s * (x - 0.04), s * (y - 0.04), s * (x + 0.04), s * (y + 0.04)),
                      fill=(250, 200, 60))
    elif resource == "diamond":
        d.polygon([(s * 0.5, s * 0.05), (s * 0.9, s * 0.4), (s * 0.5, s * 0.95),
                   (s * 0.1, s * 0.4)], fill=(150, 230, 245), outline=(20, 90, 120), width=w * 2)
        d.line((s * 0.1, s * 0.4, s * 0.9, s * 0.4), fill=(20, 90, 120), width=w)
    else:  # copper, gold, iron: an ingot with the chemical symbol (the same in every language)
        fill, symbol = INGOTS.get(resource, ((200, 200, 200), "?"))
        d.polygon([(s * 0.05, s * 0.85), (s * 0.2, s * 0.25), (s * 0.8, s * 0.25),
                   (s * 0.95, s * 0.85)], fill=fill, outline=(60, 40, 20), width=w * 2)
        d.text((s * 0.5, s * 0.57), symbol, font=font(int(s * 0.38), True), fill=INGOT_TEXT,
               anchor="mm")
    return img.resize((px, px), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def city_icon(strength: int, px: int) -> Image.Image:
    """A city: as many towers as its strength, on a wall."""
    s = px * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    stone, dark = (245, 240, 228), (60, 50, 40)
    w = SCALE * 2
    d.rectangle((s * 0.08, s * 0.6, s * 0.92, s * 0.95), fill=stone, outline=dark, width=w)
    xs = {1: [0.5], 2: [0.32, 0.68], 3: [0.22, 0.5, 0.78]}[max(1, min(3, strength))]
    for x in xs:
        d.rectangle((s * (x - 0.11), s * 0.25, s * (x + 0.11), s * 0.62), fill=stone, outline=dark,
                    width=w)
        d.polygon([(s * (x - 0.15), s * 0.27), (s * x, s * 0.02), (s * (x + 0.15), s * 0.27)],
                  fill=(200, 60, 50), outline=dark, width=w)
    return img.resize((px, px), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def token_icon(kind: str, px: int, extra: str = "") -> Image.Image:
    """Farm, trading post, sky tower and camp tokens."""
    s = px * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    w = SCALE * 2
    if kind.startswith("camp_"):
        d.polygon([(s * 0.5, s * 0.05), (s * 0.95, s * 0.92), (s * 0.05, s * 0.92)],
                  fill=(205, 170, 110), outline=(70, 45, 20), width=w)
        d.polygon([(s * 0.5, s * 0.45), (s * 0.65, s * 0.92), (s * 0.35, s * 0.92)],
                  fill=(70, 45, 20))
        d.text((s * 0.5, s * 0.5), kind[5:], font=font(int(s * 0.36), True), fill=WHITE,
               anchor="mm", stroke_width=SCALE, stroke_fill=CAMP_DARK)
    elif kind == "sky_tower":
        d.rectangle((s * 0.32, s * 0.2, s * 0.68, s * 0.95), fill=TOWER,
                    outline=(30, 20, 80), width=w)
        d.ellipse((s * 0.18, s * 0.02, s * 0.82, s * 0.35), fill=(180, 200, 255),
                  outline=(30, 20, 80), width=w)
        if extra:
            d.text((s * 0.5, s * 0.62), extra, font=font(int(s * 0.34), True), fill=WHITE,
                   anchor="mm")
    else:  # a farm token: round, white for basic resources, black with gold rim for luxury
        resource = extra
        lux = resource in LUXURY
        d.ellipse((s * 0.03, s * 0.03, s * 0.97, s * 0.97),
                  fill=(30, 30, 30) if lux else (250, 248, 240),
                  outline=GOLD if lux else (60, 60, 60), width=w * 2)
        if kind == "trading_post" and not resource:
            d.text((s * 0.5, s * 0.5), "?", font=font(int(s * 0.6), True), fill=(60, 60, 60),
                   anchor="mm")
        if kind == "trading_post":
            d.arc((s * 0.1, s * 0.1, s * 0.9, s * 0.9), 200, 340, fill=(200, 120, 0), width=w * 2)
        if resource:
            icon = resource_icon(resource, int(px * 0.62)).resize(
                (int(s * 0.62), int(s * 0.62)), Image.Resampling.LANCZOS)
            img.alpha_composite(icon, (int(s * 0.19), int(s * 0.19)))
    return img.resize((px, px), Image.Resampling.LANCZOS)


def building_icon(building: str, px: int, *, resource: str = "", pair: str = "") -> Image.Image:
    if building.startswith("city_"):
        return city_icon(int(building[-1]), px)
    if building.startswith("farm_"):
        return token_icon("farm", px, building[5:])
    if building == "trading_post":
        return token_icon("trading_post", px, resource)
    if building == "sky_tower":
        return token_icon("sky_tower", px, pair)
    return token_icon(building, px)


def card_icon(kind: str, terrain: str, px: int) -> Image.Image:
    """The picture for a card in a hand or a list."""
    if terrain:  # a territory: a terrain swatch
        img = Image.new("RGBA", (px, px), TERRAIN_COLOURS.get(terrain, (200, 200, 200)) + (255,))
        res = {"forest": "wood", "sea": "fish", "field": "carrots"}.get(terrain)
        if res:
            icon = resource_icon(res, int(px * 0.7))
            img.alpha_composite(icon, (int(px * 0.15), int(px * 0.15)))
        ImageDraw.Draw(img).rectangle((0, 0, px - 1, px - 1), outline=(40, 40, 40))
        return img
    if kind in ("provisions", "scroll") or not (
        kind.startswith(("city_", "farm_", "camp_")) or kind in ("trading_post", "sky_tower")
    ):
        s = px * SCALE
        img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        if kind == "provisions":
            d.rectangle((s * 0.1, s * 0.3, s * 0.9, s * 0.9), fill=PROVISIONS,
                        outline=(70, 40, 10), width=SCALE * 2)
            d.text((s * 0.5, s * 0.6), "+2", font=font(int(s * 0.4), True), fill=WHITE,
                   anchor="mm")
        else:  # a parchment: a rolled scroll
            d.rectangle((s * 0.18, s * 0.1, s * 0.82, s * 0.9), fill=(245, 228, 180),
                        outline=(120, 90, 40), width=SCALE * 2)
            for y in (0.1, 0.9):
                d.ellipse((s * 0.08, s * (y - 0.07), s * 0.92, s * (y + 0.07)),
                          fill=(230, 205, 150), outline=(120, 90, 40), width=SCALE * 2)
            for y in (0.35, 0.5, 0.65):
                d.line((s * 0.3, s * y, s * 0.7, s * y), fill=(150, 120, 70), width=SCALE * 2)
        return img.resize((px, px), Image.Resampling.LANCZOS)
    return building_icon(kind, px)


