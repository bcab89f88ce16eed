"""The README shows one phone-width board of each game (issue 25): a small PNG per game under
docs/img/, drawn by bench/readme_images.py, each named in README.md with alt text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

import engines
from render.common import PHONE_WIDTH

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game_id", engines.available())
def test_every_game_has_a_small_phone_width_picture_in_the_readme(game_id):
    path = ROOT / "docs" / "img" / f"{game_id}.png"
    assert path.exists(), "run python bench/readme_images.py"
    assert path.stat().st_size < 100 * 1024
    assert Image.open(path).width == PHONE_WIDTH
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tag = re.search(rf'<img src="docs/img/{game_id}\.png"[^>]*>', readme)
    assert tag, f"README.md does not show docs/img/{game_id}.png"
    alt = re.search(r'alt="([^"]+)"', tag.group(0))
    assert alt and len(alt.group(1)) > 20, "the picture needs an alt text"


def test_the_readme_stays_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
