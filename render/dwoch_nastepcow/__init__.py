"""Dwóch następców: the channel image (landscape, players, reserve) and a seat's hand.

Pure functions of a view. The board comes from the spectator view only; the hand image
from a seat's view (its ``private`` part).

Phone width: the image is portrait (landscape on top, then the players, the reserve as a
list and the notes), always ``tiles.WIDTH`` wide (a wider landscape gets smaller cells), and
every text is at least ``text_size(width)`` px and every icon (troops, badges) at least
``min_icon_px(width)``: 11 px and 14 px or more when Discord shows the image 390 px wide.
Built tiles show their roads, their effect glyph and their id; the id's plate has the owner's
colour and shape (white and round, blue and square) beside the owner's frame. Building
names, set symbols and costs no longer fit a phone-sized cell: every landscape building is
listed by name with its ids under the board, and the reserve list names each tile beside its
picture. Tiles on the table are drawn upright (a phone reader cannot turn the picture).
Troops stand in the bottom corners of a tile, one corner a seat. Guild targets and Trading
Post counts are listed under the board.

Drawn on a ``render.canvas.Canvas`` (palette mode); tile faces are drawn once per (face,
language, size) and cached.

Modules: ``tiles`` (colours, tile faces and pieces), ``board`` (the landscape), ``below``
(what is under it), ``hand``.
"""

from render.dwoch_nastepcow.board import board_canvas, render_board
from render.dwoch_nastepcow.hand import hand_canvas, render_hand
from render.dwoch_nastepcow.tiles import TROOP_COLOURS, clear_caches

__all__ = ["TROOP_COLOURS", "board_canvas", "clear_caches", "hand_canvas", "render_board",
           "render_hand"]
