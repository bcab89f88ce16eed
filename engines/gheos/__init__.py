"""Gheos (René Wiersma, Z-Man Games 2006): shape the land with triangular tiles, found
civilizations and gain their followers. Rules in :mod:`engines.gheos.rules`."""

from engines.gheos.game import GAME, Gheos

__all__ = ["GAME", "Gheos"]
