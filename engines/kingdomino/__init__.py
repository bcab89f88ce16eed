"""Kingdomino (Bruno Cathala, Blue Orange 2016): game id ``kingdomino``.

Modules: ``data`` (the 48 dominoes), ``geometry`` (grid, cell names, neighbours),
``kingdom`` (a kingdom's rows), ``rules`` (setup counts and placement rules), ``scoring``
(properties, bonuses, ranking), ``state`` (readers of a state), ``game`` (the engine),
``notation`` (readable positions), ``bot`` (greedy computer player).
"""

from .game import GAME, Kingdomino

__all__ = ["GAME", "Kingdomino"]
