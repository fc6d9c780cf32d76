"""The documentation site, built as CI builds it: ``mkdocs build --strict`` (no broken
link, no missing reference, no warning), then every page opened in headless Chromium.

The build runs the generators of ``scripts/docs/`` (game pages, pictures, the CLI page, a
balance study, the API reference) against the code of this checkout, so the tests below
also check that what the pages say is what the code declares.
"""

from __future__ import annotations

import functools
import html
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

import boardsim
from boardsim.core.options import COMMON_OPTIONS
from boardsim.games import definition

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "docs"))
from reference_modules import MODULES  # noqa: E402

pytestmark = pytest.mark.subprocess

GAMES = ("liberation", "hispania", "farrapos")
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
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built into a temporary folder, strictly: any warning fails the build."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    src = str(ROOT / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stderr[-6000:]}"
    return out


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("index.html") if "SUMMARY" not in p.parts)


def text_of(page: Path) -> str:
    """A built page's text, tags dropped and entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def inventory(site: Path) -> set[str]:
    """The names in the site's ``objects.inv`` (every object mkdocstrings rendered)."""
    data = (site / "objects.inv").read_bytes()
    body = zlib.decompress(data.split(b"\n", 4)[4]).decode()
    return {line.split(" ", 1)[0] for line in body.splitlines() if line}


def test_the_site_has_every_page_of_the_issue(site: Path) -> None:
    expected = [
        "index.html",
        "getting-started/index.html",
        "games/index.html",
        *(f"games/{g}/index.html" for g in GAMES),
        *(f"rules/{g}/index.html" for g in GAMES),
        "guides/training/index.html",
        "guides/balance/index.html",
        "guides/benchmarks/index.html",
        "guides/replays-and-play/index.html",
        "guides/other-libraries/index.html",
        "adding-a-game/index.html",
        "agents/index.html",
        "cli/index.html",
        "reference/boardsim/index.html",
    ]
    missing = [p for p in expected if not (site / p).exists()]
    assert not missing
    bench = text_of(site / "guides/benchmarks/index.html")
    reading = re.search(r"## (Reading of [^\n]+)", (ROOT / "benchmarks/README.md").read_text())
    assert reading and reading.group(1).split(" (")[0] in bench  # the latest reading, as it is
    cli = text_of(site / "cli/index.html")
    assert all(f"boardsim {c}" in cli for c in ("play", "replay", "train", "eval", "balance"))


def _public(module: object) -> list[object]:
    """The public members of a griffe module: its ``__all__``, or the names without ``_``."""
    names = module.exports if module.exports is not None else list(module.members)  # type: ignore[attr-defined]
    out = []
    for name in names:
        if name.startswith("_") or name not in module.members:  # type: ignore[attr-defined]
            continue
        member = module.members[name]  # type: ignore[attr-defined]
        if member.is_alias or member.is_module:
            continue
        out.append(member)
        if member.is_class:
            out += [
                m
                for n, m in member.members.items()
                if not n.startswith("_") and not m.is_alias and (m.is_function or m.is_class)
            ]
    return out


def test_every_public_name_has_a_reference_entry_with_a_docstring(site: Path) -> None:
    import griffe

    package = griffe.load("boardsim", search_paths=[str(ROOT / "src")], allow_inspection=False)
    rendered = inventory(site)
    undocumented, absent, count = [], [], 0
    for name in MODULES:
        module = package if name == "boardsim" else package[name.removeprefix("boardsim.")]
        if not module.docstring:
            undocumented.append(name)
        for member in _public(module):
            count += 1
            if (member.is_function or member.is_class) and not member.docstring:
                undocumented.append(member.path)
            if member.path not in rendered:
                absent.append(member.path)
    assert count > 300  # the reference covers the library, not a sample of it
    assert not undocumented, f"public names without a docstring: {undocumented}"
    assert not absent, f"public names without a reference entry: {absent}"
    top = text_of(site / "reference/boardsim/index.html")
    for name in boardsim.__all__:
        assert name in top


def test_the_top_level_reference_leads_with_what_a_user_calls_first(site: Path) -> None:
    """make_game, make_env, ... come first, in boardsim.__all__'s order, and the constants
    come last with their value and what they mean (issue 38)."""
    page = (site / "reference/boardsim/index.html").read_text(encoding="utf-8")
    where = {name: page.find(f'id="boardsim.{name}"') for name in boardsim.__all__}
    assert all(at > 0 for at in where.values()), where
    assert sorted(where, key=where.get) == list(boardsim.__all__)
    assert boardsim.__all__[0] == "make_game"
    chance = text_of(site / "reference/boardsim/index.html").split("CHANCE", 1)[1]
    assert "-1" in chance and "chance player" in chance


@pytest.mark.parametrize("game", GAMES)
def test_each_game_page_is_written_from_the_code(site: Path, game: str) -> None:
    from boardsim.games import gym_id

    page = text_of(site / f"games/{game}/index.html")
    d = definition(game)
    made = boardsim.make_game(game)
    for option in (*d.options, *COMMON_OPTIONS):
        row = re.search(rf"\n{option.name}\n+(.+?)\n", page)
        assert row, f"option {option.name} is not in the table"
        assert row.group(1).strip() == repr(made.options[option.name])  # its default
    limit = made.options["max_decisions"]
    assert ("none: max_decisions=0" in page) if limit == 0 else (f"{limit:,} decisions" in page)
    layout = __import__(f"boardsim.games.{game}.layout", fromlist=["_"])
    for name in dir(layout):
        value = getattr(layout, name)
        if name.startswith("A_") and isinstance(value, int):
            assert f"\n{name}\n" in page, f"action range {name} missing"
    assert f"float32[{made.observation_size}]" in page and f"Discrete({made.num_actions})" in page
    assert gym_id(game) in page and "rules ledger" in page
    for path in made.kernels.data_files:
        assert Path(path).name in page  # the data file and its provenance counts
    assert "reconstructed" in page and "BOARDSIM_ENVS" in page
    # every action range has words from play, or is retired (Hispania's and Farrapos's
    # cancel, never legal since version 2: their layout comments say so), or (one
    # Hispania range the generator's games do not reach) at most one is merely not met
    assert page.count("(not met in random play)") <= 1
    if game in ("hispania", "farrapos"):
        assert "(never legal: a retired range" in page


def test_the_pictures_are_made_by_the_build_not_kept_in_the_repository(site: Path) -> None:
    from PIL import Image

    for game in GAMES:
        for moment in ("start", "mid"):
            built = site / "games" / "img" / f"{game}-{moment}.png"
            with Image.open(built) as img:
                assert img.width > 600 and img.height > 400
    assert list((site / "guides" / "img").glob("balance-*.png"))
    tracked = subprocess.run(
        ["git", "ls-files", "docs"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    assert not [t for t in tracked if t.endswith((".png", ".jpg", ".gif", ".svg"))]


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site served on localhost (Material's search needs http, not file:)."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


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
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-site')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


IMAGES = """
return Array.from(document.images).map(
    (i) => [i.getAttribute('src'), i.complete, i.naturalWidth]);
"""


def test_every_page_loads_without_console_errors_and_shows_its_images(
    site: Path, served: str, browser: object
) -> None:
    d = browser
    problems, images = [], 0
    for page in pages(site):
        url = served + page.parent.relative_to(site).as_posix() + "/"
        d.get(url.replace("/./", "/"))  # type: ignore[attr-defined]
        d.execute_script("return document.readyState")  # type: ignore[attr-defined]
        for entry in d.get_log("browser"):  # type: ignore[attr-defined]
            if entry["level"] in ("SEVERE", "ERROR"):
                problems.append(f"{url}: {entry['message']}")
        for src, complete, width in d.execute_script(IMAGES):  # type: ignore[attr-defined]
            images += 1
            if not complete or not width:
                problems.append(f"{url}: image {src} did not load")
    assert len(pages(site)) > 50
    assert images >= 10  # six boards, the home page's, the balance plots
    assert not problems, "\n".join(problems[:20])
