"""Incan Gold scenario tests: the worked examples of seeds 000, 002 and 003, with pinned cards."""

from __future__ import annotations

import pytest

from engine.core import CHANCE, IllegalAction, Reason
from engine.incan_gold import GAME
from engine.incan_gold.rules import round_deck
from tests.engine.incan_gold.helpers import decide, draw, of_type, run

CAMP, TORCH = "camp", "torch"


def test_treasure_split_seed_000_nine_among_four():
    state, events = run(4, ["T9"])
    assert state.carried == (2, 2, 2, 2)
    assert state.path == (("T9", 1),)
    assert of_type(events, "card")[0]["each"] == 2


def test_treasure_split_seed_002_eleven_among_four():
    state, _ = run(4, ["T11"])
    assert state.carried == (2, 2, 2, 2)
    assert state.path == (("T11", 3),)


def test_leavers_share_path_seed_002_seven_two_leave():
    # 5 players: T17 leaves 2, T15 leaves 0, T5 leaves 0, T11 leaves 1... build 7 on the path.
    state, _ = run(5, ["T7", {}, "T11", {}, "T9"])  # remainders 2, 1, 4 -> 7 on the path
    assert sum(g for _, g in state.path) == 7
    state, events = decide(state, {0: CAMP, 1: CAMP})
    camp = of_type(events, "camp")[0]
    assert camp["share"] == 3 and camp["left_on_path"] == 1
    assert sum(g for _, g in state.path) == 1
    assert state.banked[0] == state.banked[1] == 1 + 2 + 1 + 3  # carried 1+2+1, share 3


def test_lone_leaver_takes_all_seven_seed_002():
    state, _ = run(5, ["T7", {}, "T11", {}, "T9"])
    state, events = decide(state, {2: CAMP})
    assert of_type(events, "camp")[0]["share"] == 7
    assert state.banked[2] == 4 + 7 and sum(g for _, g in state.path) == 0


def test_second_hazard_of_a_type_collapses_seed_002():
    # A spider and a fire do not end the round; the second spider does.
    state, events = run(3, ["T9", {}, "H-spiders", {}, "H-fire", {}, "H-spiders"])
    collapse = of_type(events, "collapse")
    assert len(collapse) == 1 and collapse[0]["hazard"] == "spiders"
    assert [lost for _, lost in collapse[0]["lost"]] == [3, 3, 3]
    assert state.banked == (0, 0, 0) and state.round == 2
    assert state.removed == ("H-spiders",)
    # The removed spider never returns; its twin does.
    assert state.deck.count("H-spiders") == 2 and state.deck.count("H-fire") == 3


def test_collapse_spares_banked_gems_and_campers():
    state, _ = run(3, ["T9", {0: CAMP}, "H-snakes", {}, "H-snakes"])
    assert state.banked == (3, 0, 0)


def test_third_copy_cannot_appear_after_collapse_seed_003():
    state, _ = run(3, ["H-fire", {}, "H-fire"])
    assert state.round == 2 and state.path == ()
    # The round is over: the next card belongs to round 2's fresh deck.
    assert GAME.to_move(state) == [CHANCE]


def test_lone_leaver_takes_every_artifact_two_leavers_take_none():
    state, _ = run(3, ["A1", {0: CAMP, 1: CAMP}])
    assert state.relics == ("A1",) and state.artifacts == ((), (), ())
    state, _ = draw(state, "T3")
    state, events = decide(state, {2: CAMP})  # the last explorer leaves alone: a lone leaver
    assert of_type(events, "camp")[0]["lone"] == 2
    assert state.artifacts[2] == (("A1", 5),)
    assert state.round == 2


def test_unclaimed_artifacts_on_the_path_are_lost_undrawn_ones_stay():
    state, _ = run(3, ["A1", {}, "H-fire", {}, "H-fire"])
    assert state.gone == ("A1",)
    assert "A1" not in state.deck and "A2" in state.deck
    # Round 2 without drawing A2: it stays for round 3.
    state, _ = run(3, ["A1", {}, "H-fire", {}, "H-fire", "T1", {0: CAMP, 1: CAMP, 2: CAMP}])
    assert state.round == 3 and "A2" in state.deck and "A3" in state.deck


def _claim_each_round(options: dict[str, object]) -> tuple[int, ...]:
    """Seat 0 claims the artifact entering each round (drawn at once), alone."""
    steps: list[object] = []
    for rnd in range(1, 6):
        steps += [f"A{rnd}", {0: CAMP}, "T1", {1: CAMP, 2: CAMP}]
    state, _ = run(3, steps, options=options)
    assert GAME.is_over(state)
    return tuple(v for _, v in state.artifacts[0])


def test_claim_order_scoring_first_three_five_then_ten():
    assert _claim_each_round({"artifact_scoring": "claim-order"}) == (5, 5, 5, 10, 10)


def test_printed_scoring_by_entry_round():
    assert _claim_each_round({"preset": "incan-gold-modern"}) == (5, 7, 8, 10, 12)


def test_entry_order_scoring_uses_the_round_the_card_entered_seed_000():
    # A1 is never drawn in round 1 and claimed in round 4: it still counts as rounds 1-3 (5).
    steps: list[object] = ["T1", {0: CAMP, 1: CAMP, 2: CAMP}] * 3  # rounds 1-3: A1 never drawn
    steps += ["A1", {}, "A4", {0: CAMP}, "T1", {1: CAMP, 2: CAMP}]
    steps += ["T1", {0: CAMP, 1: CAMP, 2: CAMP}]
    state, _ = run(3, steps, options={"artifact_scoring": "entry-order"})
    assert state.artifacts[0] == (("A1", 5), ("A4", 10))


def test_pickup_round_scoring_by_claim_round():
    # A1 is never drawn in round 1 or 2 and is claimed in round 3: worth 8, not 5.
    steps: list[object] = ["T1", {0: CAMP, 1: CAMP, 2: CAMP}] * 2
    steps += ["A1", {0: CAMP}, "T1", {1: CAMP, 2: CAMP}]
    state, _ = run(3, steps, options={"artifact_scoring": "pickup-round"})
    assert state.artifacts[0] == (("A1", 8),)


def test_forsvunna_relic_scores_by_pickup_round():
    steps: list[object] = []
    for low in ("T1", "T1", "T2", "T2"):  # each temple's lowest treasure (factor rounded down)
        steps += [low, {0: CAMP, 1: CAMP, 2: CAMP}]
    steps += ["A5", {0: CAMP}, "T3", {1: CAMP, 2: CAMP}]
    state, _ = run(3, steps, options={"preset": "forsvunna-diamanten"})
    assert GAME.is_over(state)
    assert state.artifacts[0] == (("A5", 12),)


def test_lone_leaver_several_artifacts_claim_order_in_path_order():
    steps: list[object] = ["T1", {0: CAMP, 1: CAMP, 2: CAMP}]  # round 1: A1 undrawn
    steps += ["A2", {}, "A1", {0: CAMP}]  # round 2: both lie on the path, seat 0 alone
    state, _ = run(3, steps)
    assert state.artifacts[0] == (("A2", 5), ("A1", 5))
    assert state.claimed == 2


def test_tie_on_score_goes_to_most_artifacts_seeds_000_002():
    steps: list[object] = ["T9", {}, "A1", {2: CAMP}, "T11", {0: CAMP, 1: CAMP}]
    for _ in range(4):
        steps += ["T3", {0: CAMP, 1: CAMP, 2: CAMP}]
    state, _ = run(3, steps)
    # seat 2: 3 + A1 (5) + 4; seats 0 and 1: 3 + 5 + 4 -- level on points, seat 2 has an artifact
    assert GAME.result(state)["scores"] == [12, 12, 12]
    assert GAME.result(state)["winners"] == [2]


def test_tie_on_score_and_artifacts_is_shared():
    state, _ = run(3, ["T3", {0: CAMP, 1: CAMP, 2: CAMP}] * 5)
    assert GAME.result(state)["scores"] == [5, 5, 5]
    assert GAME.result(state)["winners"] == [0, 1, 2]


def test_diamant_has_no_artifacts_and_rejects_artifact_scoring():
    state = GAME.setup(4, 1, {"preset": "diamant"})
    assert not any(c.startswith("A") for c in state.deck)
    assert "H-scorpions" in state.deck
    with pytest.raises(ValueError, match="artifact_scoring"):
        GAME.setup(4, 1, {"preset": "diamant", "artifact_scoring": "printed"})


@pytest.mark.parametrize(
    ("options", "name"),
    [({"colour": 1}, "colour"), ({"preset": "monopoly"}, "preset"),
     ({"artifact_scoring": "vibes"}, "artifact_scoring"), ({"open_tents": "yes"}, "open_tents")],
)
def test_bad_options_raise_value_error_naming_the_option(options, name):
    with pytest.raises(ValueError, match=name):
        GAME.setup(4, 1, options)


def test_player_counts():
    with pytest.raises(ValueError, match="players"):
        GAME.setup(1, 0)
    with pytest.raises(ValueError, match="players"):
        GAME.setup(9, 0)
    assert GAME.setup(8, 0).players == 8


def test_forsvunna_temples_rise_and_have_own_piles():
    deck1 = round_deck("forsvunna-diamanten", 1, (), ())
    deck5 = round_deck("forsvunna-diamanten", 5, (), ())
    assert deck1.count("H-fire") == 2 and deck5.count("H-fire") == 4
    assert "T51" in deck5 and "A5" in deck5 and "A1" not in deck5
    assert "T17" in deck1


@pytest.mark.parametrize(("preset", "removed", "fires_next"),
                         [("incan-gold", ["fire"], 2), ("forsvunna-diamanten", [], 2)])
def test_removed_hazards_are_the_ones_missing_from_piles_still_to_come(preset, removed, fires_next):
    """Seed 003: each temple has its own pile, so a collapse removes the card from a pile that is
    finished anyway: "Removed from the game" never lists an earlier temple's hazard there."""
    state, events = run(3, ["H-fire", {}, "H-fire"], options={"preset": preset})
    assert of_type(events, "collapse") and state.round == 2
    assert GAME.view(state, None)["removed_hazards"] == removed
    assert GAME.view(state, None)["deck"]["H-fire"] == fires_next
    assert GAME.view(state, 0)["removed_hazards"] == removed


def test_illegal_actions_are_refused_with_reasons():
    state = GAME.setup(3, 0)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, TORCH)
    assert err.value.reason is Reason.CHANCE_DUE
    with pytest.raises(IllegalAction):
        GAME.apply(state, CHANCE, "T99")
    state, _ = draw(state, "T3")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, "run")
    assert err.value.reason is Reason.ILLEGAL_MOVE
    state2, _ = GAME.apply(state, 0, CAMP)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state2, 0, TORCH)  # already chose, no change allowed
    assert err.value.reason is Reason.NOT_YOUR_TURN
    assert state.pending == ("", "", "")  # the input state was not modified


def test_one_change_per_game_house_rule():
    state = GAME.setup(3, 0, {"one_change_per_game": True})
    state, _ = draw(state, "T3")
    state, _ = GAME.apply(state, 0, CAMP)
    assert GAME.legal_actions(state, 0) == [TORCH]
    state, _ = GAME.apply(state, 0, TORCH)  # the one change
    assert GAME.legal_actions(state, 0) == []
    state, events = decide(state, {})
    assert of_type(events, "reveal")[0]["choices"] == [TORCH, TORCH, TORCH]


def test_choices_stay_secret_until_the_reveal():
    state, _ = run(4, ["T7"])
    state, events = GAME.apply(state, 1, CAMP)
    assert events == [{"type": "chosen", "chosen": 1, "deciding": 4}]
    public = GAME.view(state, None)
    assert public["chosen"] == 1 and "camp" not in repr(public)
    assert GAME.view(state, 1)["you"]["pending"] == CAMP
    assert GAME.view(state, 0)["you"]["pending"] is None


def test_banked_totals_hidden_unless_open_tents():
    state, _ = run(3, ["T9", {0: CAMP}])
    assert "banked" not in GAME.view(state, None)
    assert GAME.view(state, 0)["you"]["banked"] == 3
    state, _ = run(3, ["T9", {0: CAMP}], options={"open_tents": True})
    assert GAME.view(state, None)["banked"] == [3, 0, 0]


def test_deck_out_guard_banks_without_penalty():
    from dataclasses import replace

    state = replace(GAME.setup(3, 0), deck=("T6",))
    state, events = draw(state, "T6")
    assert of_type(events, "round_end")[0]["reason"] == "deck-out"
    assert state.banked == (2, 2, 2) and state.round == 2


def test_a_decision_after_the_first_card_of_a_round():
    state, _ = run(3, ["H-fire"])
    assert GAME.to_move(state) == [0, 1, 2]
