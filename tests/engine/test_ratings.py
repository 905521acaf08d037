"""engine/ratings.py: the OpenSkill fold is deterministic, order-aware, handles ties, AI levels and
prefix caching exactly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from engine.ratings import DEFAULT_MU, GameOutcome, Rating, fold, rate_game, recompute, sparkline


def game(game_id: int, *seats: tuple[str, int]) -> GameOutcome[str]:
    return GameOutcome(game_id, tuple(seats))


def test_a_newcomer_starts_at_ordinal_zero_and_the_winner_gains():
    assert abs(Rating().ordinal) < 1e-9
    after = rate_game({}, [("ann", 1), ("bo", 2), ("cy", 3)])
    assert after["ann"].mu > DEFAULT_MU > after["cy"].mu
    assert after["ann"].mu > after["bo"].mu > after["cy"].mu
    assert all(r.sigma < Rating().sigma and r.games == 1 for r in after.values())


def test_tied_players_with_equal_priors_move_equally():
    after = rate_game({}, [("ann", 1), ("bo", 1), ("cy", 3)])
    assert after["ann"] == after["bo"]
    assert after["ann"].mu > DEFAULT_MU > after["cy"].mu
    everyone = rate_game({}, [("ann", 1), ("bo", 1)])  # a shared win between equals changes no mean
    assert abs(everyone["ann"].mu - DEFAULT_MU) < 1e-9 and everyone["ann"].sigma < Rating().sigma


def test_an_upset_moves_more_than_an_expected_result():
    strong = {"pro": Rating(35.0, 3.0, 50), "new": Rating()}
    expected = rate_game(strong, [("pro", 1), ("new", 2)])
    upset = rate_game(strong, [("new", 1), ("pro", 2)])
    assert strong["pro"].mu - upset["pro"].mu > expected["pro"].mu - strong["pro"].mu
    assert expected["pro"].games == 51


def test_two_seats_of_one_ai_level_make_one_rating_the_mean_of_both():
    seats = [("ann", 1), ("ai:easy", 2), ("ai:easy", 3)]
    after = rate_game({}, seats)
    model = PlackettLuce()
    raw = model.rate([[model.rating()] for _ in seats], ranks=[1.0, 2.0, 3.0])
    assert abs(after["ai:easy"].mu - (raw[1][0].mu + raw[2][0].mu) / 2) < 1e-12
    assert after["ai:easy"].games == 1 and set(after) == {"ann", "ai:easy"}


def test_a_game_with_one_distinct_player_changes_nothing():
    assert rate_game({}, [("ai:easy", 1), ("ai:easy", 2)]) == {}
    run = recompute([game(1, ("ai:easy", 1), ("ai:easy", 2)), game(2, ("a", 2), ("b", 1))])
    assert set(run.book) == {"a", "b"} and [g for g, _, _ in run.history] == [2, 2]


def test_order_matters_and_history_records_each_players_rating_after_each_game():
    one = [game(1, ("a", 1), ("b", 2)), game(2, ("b", 1), ("c", 2))]
    run = recompute(one)
    assert [(g, k) for g, k, _ in run.history] == [(1, "a"), (1, "b"), (2, "b"), (2, "c")]
    assert run.history[-1][2] == run.book["c"]
    swapped = recompute(list(reversed(one)))
    assert swapped.book["b"] != run.book["b"]


placements = st.lists(st.tuples(st.sampled_from("abcdef"), st.integers(1, 4)), min_size=2, max_size=6)


@settings(max_examples=40, deadline=None)
@given(st.lists(placements, max_size=25), st.integers(0, 25))
def test_folding_a_cached_prefix_then_the_rest_equals_the_recomputation(seat_lists, cut):
    games = [GameOutcome(i, tuple(seats)) for i, seats in enumerate(seat_lists)]
    full = recompute(games)
    again = recompute(games)
    assert full.book == again.book  # deterministic, bit for bit
    cut = min(cut, len(games))
    prefix = recompute(games[:cut])
    # The cache stores floats exactly (SQLite REAL is a double): a round trip through it is lossless.
    cached = {k: Rating(float(repr(r.mu)), float(repr(r.sigma)), r.games) for k, r in prefix.book.items()}
    rest = fold(cached, games[cut:])
    assert rest.book == full.book
    assert prefix.history + rest.history == full.history


def test_sparkline():
    assert sparkline([]) == ""
    assert sparkline([1.0, 1.0]) == "▄▄"
    assert sparkline([0.0, 5.0, 10.0]) == "▁▅█"
