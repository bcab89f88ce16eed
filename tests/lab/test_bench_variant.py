"""bench/lab/bench_gheos_variant.py sets the constants it is given and refuses a name the bot does
not define (a typo would otherwise screen the unchanged bot)."""

import pytest

from bench.lab.bench_gheos_variant import override
from engines.gheos import bot


def test_a_constant_is_set_with_its_type(monkeypatch):
    monkeypatch.setattr(bot, "SHORTLIST_MANY", bot.SHORTLIST_MANY)  # restored afterwards
    monkeypatch.setattr(bot, "THREAT", bot.THREAT)
    was = bot.SHORTLIST_MANY
    assert override("SHORTLIST_MANY=5") == f"SHORTLIST_MANY = 5 (was {was})"
    assert bot.SHORTLIST_MANY == 5 and isinstance(bot.SHORTLIST_MANY, int)
    override("THREAT=0.25")
    assert bot.THREAT == 0.25


@pytest.mark.parametrize("assignment", ["SHORTLST=8", "LEVELS=2", "_tile=1", "THREAT"])
def test_an_unknown_or_non_numeric_name_is_refused(assignment):
    with pytest.raises(SystemExit):
        override(assignment)
