"""Figures the benchmark scripts share."""

from __future__ import annotations


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by nearest rank; NaN when there is nothing to measure."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]
