"""Bunny Kingdom images: the New World board for the channel and a seat's hand for its DM.

Both are pure functions of a view (``engines.bunny_kingdom`` ``view``); the board uses the
spectator view only, so it can never show a hand, a parchment before the final reveal or a
2-player reserve. Both are phone-sized (every text >= 11 px and every icon >= 14 px when shown
390 px wide). Layout of the board: a header (round, phase, pick step, passing order, deck),
the 10x10 map with A-J / 1-10 labels on every side (cells carry no names: at phone size a
name, a resource, a building and a marker do not fit one cell), each terrain told by colour
and by its resource glyph or a texture, every fief outlined in its owner's colour and each
owned cell marked with the owner's seat shape, lava drawn over the borders; below, a block per
player, two by two (score bar on a shared scale, territories and fiefs, parchments, buildings
waiting, last cards played, harvests) and, at the end, everyone's revealed parchments with
their points. The map layer (terrain, glyphs and textures, labels), each occupied cell and
each card row of a hand are drawn once and cached.

Modules: ``style`` (colours, sizes, palette, words), ``icons``, ``lines`` (the board's text),
``board``, ``hand``.
"""

from render.bunny_kingdom.board import render_board
from render.bunny_kingdom.hand import render_hand

__all__ = ["render_board", "render_hand"]
