"""Dwóch następców: the channel image (landscape, players, reserve) and a seat's hand.

Pure functions of a view. The board comes from the spectator view only; the hand image
from a seat's view (its ``private`` part).

Phone width: the image is portrait (landscape on top, then the players, the reserve as a
list and the notes) and every label a move names (coordinates, tile ids, free cells, reach
order, names and effects in the reserve) is at least ``text_size(width)`` px, 9 px or more
when Discord shows the image 390 px wide. Building names printed on the landscape tiles are
as large as the tile allows; the tile id beside them is always readable. Tiles on the table
are drawn upright (a phone reader cannot turn the picture); the owner is shown by the frame
and the owner's seat mark. Troops stand in the bottom band of a tile, clear of its id and
name. Guild targets and Trading Post counts are listed under the board, and every
landscape building by name with its tile ids (readable where the tile pictures are not).

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
