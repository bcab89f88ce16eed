"""Gheos images: the map of triangular tiles (channel) and a player's hand (private).

A pure function of a view (``engines.gheos`` ``view(state, None)`` for the board): the
renderer never sees the state, so it cannot show the bag or anyone's hand. The map is cropped
to the tiles plus the free cells around them; rows are lettered down the left side, columns
numbered along the top, and every free cell carries its name (``M30``). A continent's *label*
tile (the name used in codes) shows its name in gold; other tiles carry no plate, so their
symbols stay visible. Shore parts are hatched (land and shore are close in colour).
Civilization markers are discs on their continent, whose land is outlined in the
civilization's colour. Below the map: the epoch, whose step it is, every player (seat mark,
name, points, tokens, followers), the supply and every continent with its symbols.

Phone width: the image is portrait (panel under the map, not beside it), always
``tiles.WIDTH`` wide (a map too wide for it gets smaller tiles), every text is at least
``text_size(width)`` pixels and every icon ``min_icon_px(width)``: 11 px and 14 px or more
when Discord shows the image 390 px wide. Players own no colour in Gheos, so a seat is shown
by the outline of its seat shape (``render.common.SEAT_SHAPES``) in ink, never in a seat
colour: the six colours in the image are always civilizations.

Drawn on a ``render.canvas.Canvas`` (palette mode): tile pictures are drawn three times larger
and shrunk once per tile, orientation and size, then mapped to the palette and cached.

Modules: ``tiles`` (colours, geometry, icons, tile sprites), ``board`` (the map), ``panel``
(what is under the map), ``hand`` (a player's hand).
"""

from render.gheos.board import board_canvas, board_image, render_board
from render.gheos.hand import hand_canvas, render_hand
from render.gheos.tiles import CIV_RGB

__all__ = ["CIV_RGB", "board_canvas", "board_image", "hand_canvas", "render_board",
           "render_hand"]
