"""The screens' fonts ship in the package; a missing one stops the screen at start."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from hub.screen.canvas import Texts
from tablekit import fonts
from tablekit.display import Renderer, find_font

PACKAGE = Path(fonts.__file__).resolve().parent


def test_the_package_ships_the_dejavu_faces_and_their_licence() -> None:
    pygame.font.init()
    faces = {}
    for name in fonts.FONTS:
        font = pygame.font.Font(fonts.font_path(name), 20)
        faces[name] = (font.name, font.style_name)
    assert faces == {
        "DejaVuSans-Bold.ttf": ("DejaVu Sans", "Bold"),
        "DejaVuSansCondensed-Bold.ttf": ("DejaVu Sans", "Condensed Bold"),
        "DejaVuSans.ttf": ("DejaVu Sans", "Book"),
    }
    licence = (PACKAGE / "LICENSE").read_text()
    assert "License: bitstream-vera" in licence
    assert "Permission is hereby granted" in licence


def test_the_table_display_and_the_hub_screen_draw_with_the_packaged_fonts() -> None:
    assert find_font() == str(PACKAGE / "DejaVuSans-Bold.ttf")
    assert Renderer().font_path == find_font()
    texts = Texts()
    assert texts.paths == {
        "bold": str(PACKAGE / "DejaVuSans-Bold.ttf"),
        "cond": str(PACKAGE / "DejaVuSansCondensed-Bold.ttf"),
    }
    # The condensed face is narrower than the bold one: no silent stand-in.
    assert texts.width("cond", 20, "JUDGE") < texts.width("bold", 20, "JUDGE")


def test_a_missing_font_is_an_error_at_start_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    incomplete = tmp_path / "fonts"
    incomplete.mkdir()
    shutil.copy(PACKAGE / "DejaVuSans-Bold.ttf", incomplete)
    monkeypatch.setattr(fonts, "__file__", str(incomplete / "__init__.py"))
    assert Renderer().font_path == str(incomplete / "DejaVuSans-Bold.ttf")
    with pytest.raises(fonts.FontMissingError, match=r"DejaVuSansCondensed-Bold\.ttf is missing"):
        Texts()
    (incomplete / "DejaVuSans-Bold.ttf").unlink()
    with pytest.raises(fonts.FontMissingError, match=r"DejaVuSans-Bold\.ttf is missing"):
        Renderer()
    with pytest.raises(fonts.FontMissingError, match=r"no font 'Arial\.ttf'"):
        fonts.font_path("Arial.ttf")
