"""Quarterly seasons: names, bounds and the season table (issue 44, item 2)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine.ratings import GameOutcome, recompute
from engine.seasons import bounds, next_start, parse, previous, season_of, season_table


def ms(*args: int) -> int:
    return int(datetime(*args, tzinfo=UTC).timestamp() * 1000)  # type: ignore[misc]


def test_a_season_is_a_calendar_quarter_in_utc():
    assert season_of(ms(2026, 12, 31, 23, 59, 59)) == "2026-Q4"
    assert season_of(ms(2027, 1, 1)) == "2027-Q1"
    assert season_of(ms(2026, 7, 1) - 1) == "2026-Q2" and season_of(ms(2026, 7, 1)) == "2026-Q3"
    assert bounds("2026-Q4") == (ms(2026, 10, 1), ms(2027, 1, 1))
    assert bounds("2027-Q1") == (ms(2027, 1, 1), ms(2027, 4, 1))
    assert previous("2027-Q1") == "2026-Q4" and previous("2026-Q3") == "2026-Q2"
    assert next_start(ms(2026, 11, 5)) == ms(2027, 1, 1) and next_start(ms(2027, 1, 1)) == ms(2027, 4, 1)


@pytest.mark.parametrize(("text", "name"), [("2026-Q3", "2026-Q3"), (" 2026q4 ", "2026-Q4"), ("2026 Q1", "2026-Q1"),
                                            ("2026-Q5", None), ("Q3", None), ("26-Q3", None), ("current", None)])
def test_season_names_are_parsed_strictly(text, name):
    assert parse(text) == name


def test_a_season_table_is_the_fold_of_its_games_people_only_ranked_by_ordinal():
    games = [GameOutcome(1, ((1, 1), (2, 2), ("bot", 3))), GameOutcome(2, ((1, 1), (3, 2))),
             GameOutcome(3, ((2, 1), (3, 1))), GameOutcome(4, ((4, 1),))]  # a lone player: not rated
    lines = season_table(games, lambda key: key != "bot")
    book = recompute(games).book
    assert [line.key for line in lines] == sorted((k for k in book if k != "bot"), key=lambda k: -book[k].ordinal)
    assert all(line.rating == book[line.key] for line in lines)
    assert {line.key: line.wins for line in lines} == {1: 2, 2: 1, 3: 1}  # a shared first place is a win each
    assert lines[0].rank == 1 and [line.rank for line in lines] == sorted(line.rank for line in lines)


def test_equal_ratings_share_a_rank():
    lines = season_table([GameOutcome(1, ((1, 1), (2, 1)))])
    assert [line.rank for line in lines] == [1, 1]
