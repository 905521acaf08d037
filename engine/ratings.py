"""Skill ratings for finished games: a pure, deterministic fold of results into OpenSkill ratings.

Model: OpenSkill's Weng-Lin Plackett-Luce model (the ``openskill`` package, 6.x). Why this one:

- our games are free-for-alls of 2 to 8 seats with a full finishing order, and shared places
  (Incan Gold ties on gems and artifacts): Plackett-Luce rates a whole ranking at once and takes
  tied ranks natively, where Elo only knows pairs and a pairwise Elo of an 8-player game
  over-counts it 28 times;
- it is Bayesian (each rating is a mean ``mu`` and an uncertainty ``sigma``), so a newcomer moves
  fast and a regular slowly, and the leaderboard can rank by the conservative estimate
  ``mu - 3 sigma`` ("ordinal"): one lucky game cannot top it;
- it is the maintained, permissively licensed successor of TrueSkill-style rating (TrueSkill
  itself is patented), fast enough to recompute a server's whole history, and fully
  deterministic: the same results in the same order give bit-identical ratings.

The truth is the recomputation: :func:`recompute` folds every finished game of one game type on
one server, in the order the games finished, from the default prior. A cache may store the book
after some prefix of the games and continue with :func:`fold` on the rest: the result is
identical, because the fold only ever sees the stored floats and the remaining games.

Players are opaque hashable keys (the caller uses a Discord user id or an AI level). An AI level
is one player, so its rating says how people fare against Easy / Medium / Hard. When one key
holds several seats of a game (two Easy bots at one table), each seat is rated as its own
competitor from the same prior and the key's new rating is the mean of those posteriors. A game
with fewer than two distinct players tells nothing about skill and leaves the book unchanged.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from openskill.models import PlackettLuce

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "GameOutcome",
    "Rating",
    "RatingRun",
    "fold",
    "ordinal",
    "rate_game",
    "recompute",
    "sparkline",
]

K = TypeVar("K", bound=Hashable)

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)  # openskill's documented defaults
_SPARKS = "▁▂▃▄▅▆▇█"


def ordinal(mu: float, sigma: float) -> float:
    """Return the conservative skill estimate shown to players: ``mu - 3 sigma``."""
    return mu - 3.0 * sigma


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating: skill mean, its uncertainty, and how many rated games built it."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """Return the conservative estimate ``mu - 3 sigma`` (0 for a newcomer)."""
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class GameOutcome(Generic[K]):
    """One finished game: its id and, per seat, (player key, placement); placement 1 is best, ties share."""

    game_id: int
    seats: tuple[tuple[K, int], ...]


@dataclass(slots=True)
class RatingRun(Generic[K]):
    """The book after a fold, and the rating each player had after each game it played."""

    book: dict[K, Rating] = field(default_factory=dict)
    history: list[tuple[int, K, Rating]] = field(default_factory=list)  # (game id, player, after)


def rate_game(book: Mapping[K, Rating], seats: Sequence[tuple[K, int]]) -> dict[K, Rating]:
    """Return the new ratings of the players of one game (empty when it has < 2 distinct players)."""
    players = list(dict.fromkeys(key for key, _ in seats))
    if len(players) < 2:
        return {}
    prior = {key: book.get(key, Rating()) for key in players}
    teams = [[_MODEL.rating(mu=prior[key].mu, sigma=prior[key].sigma)] for key, _ in seats]
    rated = _MODEL.rate(teams, ranks=[float(place) for _, place in seats])
    sums: dict[K, tuple[float, float, int]] = {}
    for (key, _), team in zip(seats, rated, strict=True):
        mu, sigma, count = sums.get(key, (0.0, 0.0, 0))
        sums[key] = (mu + team[0].mu, sigma + team[0].sigma, count + 1)
    return {key: Rating(mu / n, sigma / n, prior[key].games + 1) for key, (mu, sigma, n) in sums.items()}


def fold(book: Mapping[K, Rating], games: Iterable[GameOutcome[K]]) -> RatingRun[K]:
    """Return ``book`` updated by ``games`` in the given order, with each player's rating after each game."""
    run: RatingRun[K] = RatingRun(dict(book))
    for game in games:
        for key, rating in rate_game(run.book, game.seats).items():
            run.book[key] = rating
            run.history.append((game.game_id, key, rating))
    return run


def recompute(games: Iterable[GameOutcome[K]]) -> RatingRun[K]:
    """Return the ratings of every player from scratch: the fold of all games from the default prior."""
    return fold({}, games)


def sparkline(values: Sequence[float]) -> str:
    """Return a small bar chart of ``values`` (a rating's trend), flat when they are all equal."""
    if not values:
        return ""
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return _SPARKS[3] * len(values)
    scale = (len(_SPARKS) - 1) / (high - low)
    return "".join(_SPARKS[round((value - low) * scale)] for value in values)
