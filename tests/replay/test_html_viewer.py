"""The HTML replay viewer in headless Chromium: stepping shows the board the replay says.

Needs Debian's ``chromium`` and ``chromium-driver`` (``scripts/setup.sh`` installs
them) and ``selenium``; skipped, saying why, only where they cannot be had.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import boardsim
from boardsim.games.liberation import layout as L
from boardsim.render.animate import move_label, state_digest, write_html
from boardsim.replay import read_replay
from tests.replay.helpers import write_random_game

pytestmark = pytest.mark.subprocess

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service

    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("chromium / chromedriver not installed (scripts/setup.sh installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def test_stepping_through_the_viewer_follows_the_replay(browser: object, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = boardsim.make_game("liberation", num_players=3)
    write_random_game(tmp_path / "g.jsonl", game, seed=21, moves=25)
    replay = read_replay(tmp_path / "g.jsonl")
    states = [state for _, _, state in replay.states(game)]
    page = write_html(replay, tmp_path / "viewer.html")
    d = browser
    d.get(page.resolve().as_uri())  # type: ignore[attr-defined]
    svg = d.find_element(By.ID, "board-svg")  # type: ignore[attr-defined]

    def shown() -> tuple[int, str, list[tuple[str, str]], str]:
        pawns = d.find_elements(By.CSS_SELECTOR, "#pieces [data-kind=pawn]")  # type: ignore[attr-defined]
        where = sorted(
            (p.get_attribute("data-player"), p.get_attribute("data-space")) for p in pawns
        )
        current = d.find_element(By.CSS_SELECTOR, "#log li.current").text  # type: ignore[attr-defined]
        return int(svg.get_attribute("data-step")), svg.get_attribute("data-digest"), where, current

    def expected(step: int) -> tuple[int, str, list[tuple[str, str]], str]:
        s = states[step]
        where = sorted((str(p), str(int(s.array[L.POS + p]) + 1)) for p in range(3))
        words = "start" if step == 0 else move_label(game, states[step - 1], replay.moves[step - 1])
        return step, state_digest(s), where, words

    assert shown() == expected(0)
    for step in (1, 2, 3, 4):
        d.find_element(By.ID, "next").click()  # type: ignore[attr-defined]
        assert shown() == expected(step)
    d.find_element(By.ID, "prev").click()  # type: ignore[attr-defined]
    assert shown() == expected(3)
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)  # type: ignore[attr-defined]
    assert shown() == expected(25)
    assert shown()[2] != expected(0)[2]  # the pawns did move on the board
    d.find_element(By.ID, "first").click()  # type: ignore[attr-defined]
    assert shown() == expected(0)


def _layout(d: object) -> dict[str, float]:
    script = """
    const b = document.getElementById('board-svg').getBoundingClientRect();
    const f = document.getElementById('board-wrap').getBoundingClientRect();
    const p = document.getElementById('panel-svg');
    const r = p.getBoundingClientRect();
    return {board_w: b.width, board_h: b.height, board_bottom: b.bottom,
            frame_w: f.width, frame_h: f.height,
            panel_w: p.clientWidth, panel_right: r.right, panel_view_w: p.viewBox.baseVal.width,
            win_w: window.innerWidth, win_h: window.innerHeight};
    """
    return d.execute_script(script)  # type: ignore[attr-defined]


def test_the_viewer_fits_the_board_to_the_window_and_zooms(browser: object, tmp_path: Path) -> None:
    """At 1400 x 900 the Farrapos board is drawn about 1,000 px wide (its names at about
    their own size), the side panel at exactly its own size and inside the window; the
    zoom buttons and keys scale the board, and "fit" brings it back."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = boardsim.make_game("farrapos")
    write_random_game(tmp_path / "f.jsonl", game, seed=5, moves=40)
    page = write_html(read_replay(tmp_path / "f.jsonl"), tmp_path / "f.html")
    d = browser
    d.execute_cdp_cmd(  # type: ignore[attr-defined]
        "Emulation.setDeviceMetricsOverride",
        {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False},
    )
    try:
        d.get(page.resolve().as_uri())  # type: ignore[attr-defined]
        fit = _layout(d)
        assert fit["win_w"] == 1400 and fit["win_h"] == 900
        assert fit["board_w"] >= 950  # the board alone, not board and panel, fills the width
        assert fit["board_bottom"] <= 900  # and fits the height: no scrolling to see it
        # the frame hugs the board: no blank strip beside or below it (issue 38)
        assert fit["frame_w"] - fit["board_w"] <= 4 and fit["frame_h"] - fit["board_h"] <= 4
        assert fit["panel_w"] == pytest.approx(fit["panel_view_w"], abs=1)  # 1:1, readable
        assert fit["panel_right"] <= 1400
        d.find_element(By.ID, "zoom-in").click()  # type: ignore[attr-defined]
        assert _layout(d)["board_w"] == pytest.approx(fit["board_w"] * 1.25, abs=2)
        d.find_element(By.TAG_NAME, "body").send_keys("+")  # type: ignore[attr-defined]
        assert _layout(d)["board_w"] == pytest.approx(fit["board_w"] * 1.5625, abs=2)
        d.find_element(By.ID, "zoom-fit").click()  # type: ignore[attr-defined]
        assert _layout(d)["board_w"] == pytest.approx(fit["board_w"], abs=1)
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)  # type: ignore[attr-defined]
        chips = d.find_elements(By.CSS_SELECTOR, "#pieces [data-kind=unit]")  # type: ignore[attr-defined]
        assert chips  # the units of the last position are drawn
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})  # type: ignore[attr-defined]
