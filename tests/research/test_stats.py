"""Statistics on known inputs: Wilson and Newcombe intervals, seat advantage, Hispania effects."""

from __future__ import annotations

import itertools

import pytest

from boardsim.research import stats


def test_wilson_interval_matches_published_values() -> None:
    # Wilson (1927) / Newcombe (1998) table values
    assert stats.wilson_interval(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert stats.wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert stats.wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert stats.wilson_interval(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)


def test_wilson_interval_narrows_with_more_games_and_refuses_nonsense() -> None:
    small = stats.wilson_interval(5, 10)
    large = stats.wilson_interval(500, 1000)
    assert small[1] - small[0] > large[1] - large[0]
    assert all(x != x for x in stats.wilson_interval(0, 0))  # nan: no games, no rate
    with pytest.raises(ValueError):
        stats.wilson_interval(11, 10)


def test_newcombe_difference_interval_matches_the_paper() -> None:
    d, low, high = stats.newcombe_interval(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert (low, high) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def _row(num_players: int, winners: str, **extra) -> dict:
    return {"num_players": num_players, "winners": winners, "test_seat": -1, **extra}


def test_first_seat_advantage_against_the_fair_share() -> None:
    rows = [_row(3, "0")] * 50 + [_row(3, "1")] * 25 + [_row(3, "2")] * 25
    adv = stats.first_seat_advantage(rows)
    assert adv["first_seat_rate"] == pytest.approx(0.5)
    assert adv["fair_share"] == pytest.approx(1 / 3)
    assert adv["advantage"] == pytest.approx(0.5 - 1 / 3)
    assert adv["low"] > 0  # 50/100 is significantly above a third
    assert adv["seat_rates"] == pytest.approx([0.5, 0.25, 0.25])


def test_shared_wins_count_for_every_winner_and_nobody_for_a_shared_loss() -> None:
    rows = [_row(3, "0|1|2")] * 3 + [_row(3, "")]
    rates = stats.seat_win_rates(rows)
    assert [r.rate for r in rates] == pytest.approx([0.75, 0.75, 0.75])


def test_agent_under_test_win_rate_by_seat() -> None:
    rows = [_row(2, "0", seat=0, test_seat=0)] * 3 + [_row(2, "0", seat=1, test_seat=1)] * 4
    out = stats.win_rates(rows, ["seat"], stats.test_agent_won)
    assert [(o["seat"], o["wins"], o["games"]) for o in out] == [(0, 3, 3), (1, 0, 4)]


def test_length_and_margin_summaries() -> None:
    rows = [
        {"decisions": d, "truncated": int(d == 50), "winners": "0", "margin": 2}
        for d in (10, 20, 30, 40, 50)
    ]
    length = stats.length_summary(rows)
    assert length["mean"] == 30 and length["q50"] == 30 and length["truncated"] == 0.2
    assert stats.score_margins(rows)["mean"] == 2


LEVELS = [[7, 6, 5], [5, 4, 3], [4, 3, 2], [5, 4, 3], [1, 2, 3]]


def _hispania_rows() -> list[dict]:
    """Rome wins when denarii are high (strong effect) and, oddly, when armies are many."""
    rows = []
    for combo in itertools.product(*LEVELS):
        level = "-".join(map(str, combo))
        d, a = LEVELS[0].index(combo[0]), LEVELS[4].index(combo[4])
        p_win = 0.9 - 0.4 * d + 0.05 * a  # per 20 games
        wins = round(20 * p_win)
        rows += [{"level": level, "won": i < wins} for i in range(20)]
    return rows


def test_parameter_effects_rank_the_parameters_and_judge_the_rulebook_order() -> None:
    names = ("denarii", "garrisons", "fleets", "roads", "armies")
    effects = stats.parameter_effects(
        _hispania_rows(),
        lambda r: r["won"],
        names,
        LEVELS,
        level_of=lambda r: [int(x) for x in r["level"].split("-")],
    )
    by_name = {e["parameter"]: e for e in effects}
    assert effects[0]["parameter"] == "denarii"  # the largest drop comes first
    assert by_name["denarii"]["drop"] == pytest.approx(0.8, abs=0.02)
    assert by_name["denarii"]["ordering"] == "holds"
    assert by_name["armies"]["ordering"] == "violated"  # more armies made Rome stronger
    assert by_name["garrisons"]["ordering"] == "not resolved"  # no effect at all
    assert [r["games"] for r in by_name["fleets"]["rates"]] == [81 * 20] * 3


def test_variant_effects_read_easier_harder_and_the_rulebook_order() -> None:
    rows = (
        [{"variant": "none", "won": i < 50} for i in range(100)]
        + [{"variant": "ingenivm", "won": i < 80} for i in range(100)]
        + [{"variant": "pirates", "won": i < 52} for i in range(100)]
        + [{"variant": "terror", "won": i < 20} for i in range(100)]
    )
    order = ["ingenivm", "imperivm", "pirates", "terror"]
    v = stats.variant_effects(rows, lambda r: r["won"], order)
    readings = {e["variant"]: e["reading"] for e in v["effects"]}
    assert readings == {"ingenivm": "easier", "pirates": "no clear effect", "terror": "harder"}
    assert v["tau"] == pytest.approx(-1.0)  # easier first, harder last: the order holds
    with pytest.raises(ValueError, match="baseline"):
        stats.variant_effects(rows[100:], lambda r: r["won"], order)


def test_kendall_tau() -> None:
    assert stats.kendall_tau([1, 2, 3], [1, 2, 3]) == 1.0
    assert stats.kendall_tau([1, 2, 3], [3, 2, 1]) == -1.0
