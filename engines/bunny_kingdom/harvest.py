"""The harvest phase (*фаза збирання врожаю*, *faza zbiorów*): golden carrots from each fief.

Carrots from a fief = strength (towers of its cities) x wealth (distinct resource types).
A fief without a city or without a resource gives nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.bunny_kingdom.board import cell_resources, city_strength, fiefs
from engines.bunny_kingdom.data import COORDS

State = dict[str, Any]


@dataclass(frozen=True)
class FiefHarvest:
    cells: tuple[int, ...]
    strength: int
    resources: tuple[str, ...]

    @property
    def wealth(self) -> int:
        return len(self.resources)

    @property
    def points(self) -> int:
        return self.strength * self.wealth

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON record kept in the state and shown in views and events."""
        return {
            "cells": [COORDS[i] for i in self.cells],
            "strength": self.strength,
            "resources": list(self.resources),
            "wealth": self.wealth,
            "points": self.points,
        }


def fief_strength(state: State, fief: list[int]) -> int:
    """*Сила феоду*: the number of towers of all its cities (1 + 1 + 3 = 5)."""
    return sum(city_strength(state, i) for i in fief)


def fief_resources(state: State, fief: list[int]) -> tuple[str, ...]:
    """Distinct resources the fief produces, sorted (2 forests give wood once)."""
    found: set[str] = set()
    for i in fief:
        found.update(cell_resources(state, i))
    return tuple(sorted(found))


def harvest_fiefs(state: State, seat: int) -> list[FiefHarvest]:
    """Every fief of the seat with its strength, resources and carrots."""
    return [
        FiefHarvest(tuple(f), fief_strength(state, f), fief_resources(state, f))
        for f in fiefs(state, seat)
    ]
