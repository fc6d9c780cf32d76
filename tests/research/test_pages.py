"""Each game's balance page, docs/balance/<game>.md: written by one command from the
questions the game declares, so its figures are the command's, never copied by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardsim.api import list_games, make_game
from boardsim.cli import main
from boardsim.core.errors import OptionError
from boardsim.core.game import BalanceTuning
from boardsim.research.pages import (
    GENERATED,
    PageRun,
    SectionCost,
    anchor,
    finished_tuning,
    page_cost_lines,
    play_tuning,
    question_cost,
    questions,
    restricted_command,
    rungs_note,
    slug,
    sweep_command,
    trial_precision,
    tune_command,
    tuning_section,
    write_page,
)
from boardsim.research.sweep import finished_sweep, parse_grid, run_sweep

ROOT = Path(__file__).resolve().parents[2]


def _write(tmp_path: Path, *only: str) -> Path:
    """Farrapos's page at 2 games a cell, into ``tmp_path``."""
    return write_page(
        "farrapos", PageRun(2), out_dir=tmp_path / "pages", work=tmp_path / "work", only=only
    )


@pytest.mark.slow
def test_a_page_is_the_sweeps_of_its_questions(tmp_path: Path) -> None:
    page = _write(tmp_path, "The advanced rules")
    text = page.read_text()
    assert page.name == "farrapos.md"
    assert text.startswith(GENERATED)
    assert "boardsim balance docs farrapos --games-per-cell 2 --seed 0" in text
    assert "## The advanced rules" in text and "### Variants" in text
    assert "## Side win rates across skill" not in text  # not asked for
    # the question's sweep is kept, and a second run resumes it (same page)
    assert (tmp_path / "work" / "farrapos" / slug("The advanced rules") / "results.csv").exists()
    again = _write(tmp_path, "The advanced rules")
    assert _figures(again.read_text()) == _figures(text)
    # the whole page, then one question again: the other's section is read back, not lost
    whole = _write(tmp_path)
    assert "## Side win rates across skill" in whole.read_text()
    one = _write(tmp_path, "The advanced rules")
    assert _figures(one.read_text()) == _figures(whole.read_text())
    # a sweep is read back only as the very sweep asked for, every cell played
    folder = tmp_path / "work" / "farrapos" / slug("Side win rates across skill")
    grid = parse_grid("farrapos", ["skill=rungs:10"])
    assert finished_sweep("farrapos", grid, ["heuristic"], 2, folder)
    assert not finished_sweep("farrapos", grid, ["heuristic"], 3, folder)  # other games
    wider = parse_grid("farrapos", ["skill=rungs:20"])
    assert not finished_sweep("farrapos", wider, ["heuristic"], 2, folder)  # cells missing


def _figures(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("|")]


def test_the_command_line_writes_the_page_and_refuses_a_question_it_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["balance", "docs", "farrapos", "--games-per-cell", "2", "--no-progress"]
    args += ["--out", str(tmp_path), "--work", str(tmp_path / "w")]
    assert main([*args, "--question", "no such question"]) == 2
    assert "no balance question 'no such question'" in capsys.readouterr().err
    assert main([*args, "--question", "The advanced rules"]) == 0
    assert (tmp_path / "farrapos.md").exists()
    assert "warning: " in capsys.readouterr().err  # the other sections, left out
    assert main(["balance", "docs", "chess"]) == 2


def test_bad_page_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="at least 1"):
        write_page("farrapos", PageRun(0), out_dir=tmp_path, work=tmp_path)


@pytest.mark.parametrize("name", list_games())
def test_the_committed_page_is_the_command_s_and_asks_every_question(name: str) -> None:
    """docs/balance/<game>.md names the command that wrote it and has a section for every
    question the game declares now (a question added since means: run it again)."""
    text = (ROOT / "docs" / "balance" / f"{name}.md").read_text()
    assert text.startswith(GENERATED)
    assert f"`boardsim balance docs {name} --games-per-cell " in text
    definition = make_game(name).definition
    assert f"{name} version {definition.version} (" in text
    for q in definition.balance_questions:
        assert f"## {q.title}\n" in text
        assert "`" + sweep_command(name, q, PageRun(1)).split(" --games-per-cell")[0] in text
    for t in definition.balance_tunings:
        assert f"## {t.title}\n" in text
        assert "`" + tune_command(name, t, PageRun(1)).split(" --trials")[0] in text
    for r in definition.restricted_play:
        assert f"## {r.title}\n" in text
        assert "`" + restricted_command(name, r, PageRun(1)).split(" --games")[0] in text


def test_a_section_reads_its_questions_cells_only_not_an_earlier_grids(tmp_path: Path) -> None:
    # a sweep of a wider grid left in the question's folder (a question since narrowed)
    folder = tmp_path / "work" / "farrapos" / slug("The advanced rules")
    wider = parse_grid("farrapos", ["variant=all", "final_tie=draw,empire"])
    run_sweep("farrapos", wider, ["heuristic"], 2, folder)
    text = _write(tmp_path, "The advanced rules").read_text()
    assert "final_tie=empire" not in text
    assert "6 games in 3 cells" in text  # none, siege, port_transport: not the 6 cells


def test_the_pages_links_are_the_sites_heading_ids() -> None:
    from markdown.extensions.toc import slugify  # what mkdocs build gives each heading

    titles = [
        q.title
        for name in list_games()
        for q in (
            *make_game(name).definition.balance_questions,
            *make_game(name).definition.balance_tunings,
        )
    ]
    assert anchor("The victory threshold (victory_vp)") == "the-victory-threshold-victory_vp"
    assert all(anchor(t) == slugify(t, "-") for t in titles)


def test_a_tuning_section_is_its_search_and_is_read_back_not_run_again(tmp_path: Path) -> None:
    """A page's tuning is a ``balance tune`` search in its own folder: the section gives its
    command, the best settings with their intervals and the closest trials; a second page
    reads the finished search back (no trial, no fresh games), a search with more trials
    asked is not finished."""
    tuning = BalanceTuning(
        "Tuning the threshold",
        "A threshold for an even game.",
        ("republic=0.4-0.6@heuristic",),
        ("victory_vp=16:32",),
        trials=3,
    )
    run = PageRun(4)
    work = tmp_path / "work"
    assert finished_tuning("farrapos", tuning, run, work) is None
    report = play_tuning("farrapos", tuning, run, work)
    text = tuning_section("farrapos", tuning, report, run)
    assert text.startswith("## Tuning the threshold\n\nA threshold for an even game.\n")
    command = "boardsim balance tune farrapos --target republic=0.4-0.6@heuristic --search "
    assert f"`{command}victory_vp=16:32 --trials 3 --games-per-trial 4 --seed 0" in text
    assert "### Best settings" in text and "### The closest trials" in text
    assert "`victory_vp=" in text and "search.png" not in text.split("Alone:")[0]
    assert "![the search]" not in text
    folder = work / slug("Tuning the threshold")
    stamp = (folder / "best.json").stat().st_mtime_ns
    assert finished_tuning("farrapos", tuning, run, work) == report
    assert play_tuning("farrapos", tuning, run, work) == report
    assert (folder / "best.json").stat().st_mtime_ns == stamp  # nothing written again
    more = BalanceTuning(tuning.title, tuning.asks, tuning.targets, tuning.search, trials=4)
    assert finished_tuning("farrapos", more, run, work) is None


def test_the_ledgers_cite_the_pages_sections_that_exist() -> None:
    """docs/rules/<game>.md cites each contested reading's measured effect by a link to a
    section of the balance page (never a copied figure): every such link is a heading the
    page has, and every question that varies a rule option (not only the skill, the
    players, the level or the variants) and every tuning is cited by its ledger."""
    import re

    for name in list_games():
        ledger = (ROOT / "docs" / "rules" / f"{name}.md").read_text()
        page = (ROOT / "docs" / "balance" / f"{name}.md").read_text()
        headings = {anchor(h) for h in re.findall(r"^## (.+)$", page, flags=re.M)}
        cited = set(re.findall(rf"\(\.\./balance/{name}\.md#([^)]+)\)", ledger))
        assert cited and cited <= headings, sorted(cited - headings)
        definition = make_game(name).definition
        plain = {"skill", "num_players", "level", "variant"}
        asked = {
            anchor(q.title)
            for q in definition.balance_questions
            if {g.split("=")[0] for g in q.grid} - plain
        }
        asked |= {anchor(t.title) for t in definition.balance_tunings}
        assert asked <= cited, sorted(asked - cited)


def test_a_page_to_a_precision_names_it_and_is_read_back(tmp_path: Path) -> None:
    run = PageRun(4, precision=0.3, max_games_per_cell=8)
    kw = {"out_dir": tmp_path / "pages", "work": tmp_path / "work"}
    warned: list[str] = []
    page = write_page("farrapos", run, only=["The advanced rules"], warn=warned.append, **kw)
    text = page.read_text()
    assert "--games-per-cell 4 --seed 0 --precision 0.3 --max-games-per-cell 8" in text
    # a new work folder holds none of the other sections: the page leaves them out, and
    # says so rather than quietly publishing one section
    others = [q.title for q in questions("farrapos") if q.title != "The advanced rules"]
    assert len(warned) == 1 and all(title in warned[0] for title in others)
    assert f"Questions: [The advanced rules](#{anchor('The advanced rules')})." in text
    # its games were timed as they were played: the page says what they cost
    cost = next(line for line in text.splitlines() if line.startswith("What the page's games"))
    assert "of one core in all (The advanced rules " in cost and "on 128" in cost
    folder = tmp_path / "work" / "farrapos" / slug("The advanced rules")
    held = {len(p.read_text().splitlines()) - 1 for p in (folder / "cells").glob("*.csv")}
    assert held <= {4, 8}  # a first round of 4, then at most 8 a cell
    # written again, the sweep is resumed with nothing left to play: the same section
    again = write_page("farrapos", run, only=["The advanced rules"], **kw)
    assert _figures(again.read_text()) == _figures(text)
    with pytest.raises(OptionError, match="time budget goes with a precision"):
        write_page("farrapos", PageRun(4, seconds=60), **kw)


def test_a_tuning_is_played_to_its_precision_only_on_a_page_played_to_one() -> None:
    tuning = BalanceTuning(
        "Band",
        "The designers' band.",
        ("republic=0.48-0.52@heuristic",),
        ("victory_vp=16:32",),
        precision=0.01,
        max_games=10000,
    )
    assert trial_precision(tuning, PageRun(2)) == (None, None)
    assert trial_precision(tuning, PageRun(1000, precision=0.01)) == (0.01, 10000)
    assert "--precision" not in tune_command("farrapos", tuning, PageRun(2))
    text = tune_command("farrapos", tuning, PageRun(1000, precision=0.01))
    assert "--trials 30 --games-per-trial 1000 --precision 0.01 --max-games-per-trial 10000" in text


def test_a_page_to_a_precision_says_which_rungs_it_plays_to_which_half_width() -> None:
    assert rungs_note(PageRun(2)) == []
    text = " ".join(rungs_note(PageRun(1000, precision=0.01, search_precision=0.03)))
    assert "a 95% half-width of 1 points when its seats are scripted or a network" in text
    assert "and 3 points when a seat searches (MCTS)" in text
    assert "per rung" in text


def test_a_page_s_time_budget_is_shared_so_a_late_question_keeps_its_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import boardsim.research.pages as pages

    clock = {"now": 0.0}
    given: dict[str, float | None] = {}
    monkeypatch.setattr(pages.time, "monotonic", lambda: clock["now"])

    def question_spends_its_share(game_name, question, run, work, progress, seconds=None):
        given[question.title] = seconds
        # the first question would use every second it is given; the others need 10 s
        clock["now"] += (seconds or 0.0) if not given.keys() - {question.title} else 10.0
        return {"cells": []}

    def tuning_spends(game_name, tuning, run, work, seconds=None):
        given[tuning.title] = seconds
        return "# Tuning\n"

    monkeypatch.setattr(pages, "play_question", question_spends_its_share)
    monkeypatch.setattr(pages, "play_tuning", tuning_spends)
    monkeypatch.setattr(pages, "section", lambda *a: "section")
    monkeypatch.setattr(pages, "tuning_section", lambda *a: "tuning")
    # restricted play is played to its fixed games, outside the budget's shares
    monkeypatch.setattr(pages, "play_restricted", lambda *a: [])
    monkeypatch.setattr(pages, "restricted_section", lambda *a: "restricted")
    run = PageRun(4, precision=0.1, seconds=1200)
    write_page("farrapos", run, out_dir=tmp_path / "pages", work=tmp_path / "work")
    items = [q.title for q in pages.questions("farrapos")]
    items += [t.title for t in pages.tunings("farrapos")]
    assert list(given) == items
    shares = [given[t] for t in items]
    assert shares[0] == pytest.approx(1200 / len(items))  # an equal share, not all of it
    # what the others did not need passes on: each later share is at least the first
    assert all(s is not None and s >= shares[0] for s in shares[1:])
    assert shares[-1] > shares[0] and sum(s for s in shares if s) > 1200
    # the page's command gives the budget; a question played alone has none of its own
    question = pages.questions("farrapos")[0]
    assert "--time-budget 1200" in pages.command("farrapos", run)
    assert "--time-budget" not in sweep_command("farrapos", question, run)
    assert "--precision 0.1" in sweep_command("farrapos", question, run)
    # without a budget, nothing is timed
    given.clear()
    write_page("farrapos", PageRun(4), out_dir=tmp_path / "pages", work=tmp_path / "work")
    assert set(given.values()) == {None}


def test_a_page_says_what_its_games_cost_here_on_two_cores_and_on_ray() -> None:
    """Twenty cells of 10 minutes of one core and one of 50: 4.2 hours in all, 2.1 on two
    cores, and no Ray cluster faster than the dearest cell, whose rounds follow one
    another."""
    summary = {
        "cells": [
            {"core_seconds_a_game": 0.5, "subject": {"games": 1200}},
            {"subject": {"games": 40}},  # played before the sweep kept its timings
        ]
    }
    assert question_cost("Levels", summary) == SectionCost("Levels", (600.0,), 1)
    costs = [SectionCost("Levels", (600.0,) * 20, 1), SectionCost("Variants", (3000.0,), 0)]
    _, text = page_cost_lines(costs, ["The mechanics"])
    assert "4.2 h of one core in all (Levels 3.3 h; Variants 50.0 min)" in text
    assert "about 2.1 h on two cores" in text
    assert "50.0 min on 8, 50.0 min on 32, 50.0 min on 128" in text
    assert "1 cell was not timed" in text
    assert text.endswith("Not timed, not counted: The mechanics.")
    assert page_cost_lines([SectionCost("Levels", (), 3)], []) == []  # nothing timed
