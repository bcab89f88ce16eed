"""Dwóch następców (Albi 2022; Czech "Dva bratři", English "The Two Heirs"), two players.

Modules: ``data`` (the reconstructed tile set), ``geometry`` (cells, directions, facing),
``state`` (state shape), ``reserve`` (royal reserve and protocol), ``rules`` (the actions
of a turn), ``roads``, ``scoring``, ``actions`` (codes), ``view``, ``promise`` (what a
position is worth to the computer player), ``bot``, ``game``.
"""

from engines.dwoch_nastepcow.game import DwochNastepcow

GAME = DwochNastepcow()

__all__ = ["GAME", "DwochNastepcow"]
