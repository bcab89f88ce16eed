"""Bunny Kingdom (Richard Garfield, IELLO 2017): draft, build and harvest in the New World.

Modules: ``data`` (board and cards), ``board`` (control, fiefs), ``harvest`` (strength x
wealth), ``scrolls`` (the 37 parchments), ``rules`` (the round, phase by phase), ``state``
(the state dict), ``notation`` (the readable position), ``game`` (the contract), ``bot`` (the
computer player).
"""

from engines.bunny_kingdom.game import BunnyKingdom

GAME = BunnyKingdom()

__all__ = ["GAME", "BunnyKingdom"]
