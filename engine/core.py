"""The engine contract shared by every game: chance, errors, the game protocol and a runner.

Every game module (``engine.incan_gold``, ``engine.sakkara``, ``engine.indus``) exposes a ``GAME``
object satisfying :class:`Game`. States are immutable plain data; ``apply`` returns a new state
and a list of events. Randomness never comes from module-level ``random``: a state carries its
``seed`` and the number of chance outcomes already applied (``draws``), and the k-th chance
outcome of a game is drawn from a counter-based generator keyed by ``(seed, k)``. The same key
can be recomputed anywhere (a numpy batch simulator, a replay, a test), which is what makes
``replay(seed, actions)`` exact.

Events are JSON-ready dicts with a ``"type"``; an event that only some seats may see carries
``"private_to": [seat, ...]`` and is dropped by :func:`public_events`.
"""

from __future__ import annotations

import enum
import json
import random
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "CHANCE",
    "THINKING_S",
    "Agent",
    "Budget",
    "Event",
    "Game",
    "IllegalAction",
    "Playthrough",
    "Reason",
    "agent_rng",
    "chance_key",
    "chance_uniform",
    "check_seat",
    "freeze",
    "is_listed",
    "is_seat",
    "pick_weighted",
    "play",
    "public_events",
    "replay",
    "resolve_chance",
    "splitmix64",
    "thinking_for",
    "thinking_scaled",
    "thinking_seconds",
]

CHANCE = -1
"""The pseudo-seat that owes an action when a random event (card, die, deal) is due."""

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

Event = dict[str, Any]
"""What happened, for renderers and logs: ``{"type": ..., ...}``, JSON-serialisable."""

class Reason(enum.Enum):
    """Why an action was refused (modelled on boardgame.io's ActionErrorType)."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_MOVE = "illegal_move"
    CHANCE_DUE = "chance_due"
    NOT_A_SEAT = "not_a_seat"


class IllegalAction(Exception):
    """Raised when an action is not legal for that seat in that state; the state is unchanged."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        super().__init__(f"{reason.value}: {detail}" if detail else reason.value)
        self.reason = reason
        self.detail = detail


def is_seat(seat: object) -> bool:
    """Return True for a seat number: a plain ``int`` (``CHANCE`` included). A ``bool`` is an
    ``int`` to Python, but ``True`` must never pass for seat 1, nor ``1.0`` or ``"1"``."""
    return type(seat) is int


def check_seat(seat: object) -> None:
    """Raise IllegalAction(NOT_A_SEAT) unless ``seat`` is a seat number (see :func:`is_seat`)."""
    if type(seat) is not int:
        raise IllegalAction(Reason.NOT_A_SEAT, f"{seat!r} is not a seat number")


@runtime_checkable
class Game(Protocol):
    """The contract of ``GAME`` in every game module (binding names: see architecture.md)."""

    name: str
    min_players: int
    max_players: int

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        """Return a new game; unknown or invalid options raise ValueError naming the option."""
        ...

    def to_move(self, state: Any) -> list[int]:
        """Return the seats that still owe an action, ``[CHANCE]`` or ``[]`` when over."""
        ...

    def chance_outcomes(self, state: Any) -> list[tuple[Any, float]]:
        """Return the possible random events with their probabilities."""
        ...

    def sample_chance(self, state: Any, key: int) -> Any:
        """Return the chance outcome selected by the 64-bit key ``chance_key(seed, draws)``."""
        ...

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        """Return the sorted, JSON-serialisable actions ``seat`` may take now."""
        ...

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]:
        """Return the next state and its events; raise IllegalAction for anything not legal."""
        ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` may know (``None``: the public view), JSON-serialisable."""
        ...

    def observe(self, state: Any, seat: int) -> dict[str, Any]:
        """Return what an AI seat perceives: its view plus what perfect memory of public events
        gives (e.g. opponents' banked totals a careful player reconstructs); never rendered."""
        ...

    def resample_hidden(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Return a state that differs from ``state`` at most in what ``seat`` cannot see
        (other seats' pending choices, covered tiles, an opponent's rack the seat cannot know);
        used by the no-leak contract test and by determinised AI search."""
        ...

    def is_over(self, state: Any) -> bool:
        """Return True when the game has ended."""
        ...

    def result(self, state: Any) -> dict[str, Any]:
        """Return ``{"scores": [...], "winners": [...], ...}`` for a finished game."""
        ...

    def dumps(self, state: Any) -> str:
        """Return the state as a string that ``loads`` turns back into an equal state."""
        ...

    def loads(self, data: str) -> Any:
        """Return the state that ``dumps`` produced ``data`` from."""
        ...


class Agent(Protocol):
    """A player policy: a pure function of one seat's view, its legal actions and its own RNG."""

    def __call__(self, view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
        """Return one of ``legal``."""
        ...


THINKING_S = 1.0
"""How long a searching AI (a Hard level) thinks over one decision unless the bot is told otherwise."""

_thinking: ContextVar[float] = ContextVar("thinking_s", default=THINKING_S)


def thinking_seconds() -> float:
    """Return the thinking time of the decision being made (:data:`THINKING_S`, or the bot's setting).

    A search spends a budget *counted* in rollouts, so the same view and RNG give the same move on
    any machine; the count is sized for this many seconds on the project machine and scales with
    it, and the seconds are a wall-clock cap only. It is not an argument of :class:`Agent`, which
    every level shares and most levels never search.
    """
    return _thinking.get()


def thinking_scaled(count: int, seconds: float) -> tuple[int, float]:
    """Return a search budget sized for :data:`THINKING_S` (a count, a wall-clock cap) scaled to the
    thinking time of the decision being made (each game's Hard and searches share this rule)."""
    share = thinking_seconds() / THINKING_S
    return max(1, round(count * share)), seconds * share


@dataclass(frozen=True)
class Budget:
    """How much one AI decision may search: a count of rollouts (the bound, so the same position
    gives the same move on any machine) and a wall-clock cap (only a machine far slower than
    planned reaches it). Sized for :data:`THINKING_S`; :meth:`scaled` fits it to the decision."""

    rollouts: int
    seconds: float

    def scaled(self) -> Budget:
        """Return this budget scaled to the thinking time of the decision being made."""
        count, seconds = thinking_scaled(self.rollouts, self.seconds)
        return Budget(count, seconds)


@contextmanager
def thinking_for(seconds: float) -> Iterator[None]:
    """Make ``seconds`` the thinking time of the decisions made inside the block."""
    token = _thinking.set(seconds)
    try:
        yield
    finally:
        _thinking.reset(token)


def splitmix64(x: int) -> int:
    """Return the SplitMix64 finaliser of ``x`` (a 64-bit bijection with good avalanche)."""
    x = (x + GOLDEN) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def chance_key(seed: int, draws: int) -> int:
    """Return the 64-bit random key of the chance event number ``draws`` of game ``seed``."""
    return splitmix64((splitmix64(seed & MASK64) + draws * GOLDEN) & MASK64)


def chance_uniform(key: int) -> float:
    """Return the uniform float in [0, 1) carried by a chance key (its top 53 bits)."""
    return (key >> 11) * (1.0 / (1 << 53))


def pick_weighted(outcomes: Sequence[tuple[Any, float]], key: int) -> Any:
    """Return the outcome whose cumulative-probability slot contains ``chance_uniform(key)``.

    The sum runs in list order with float64 additions, so a vectorised simulator that does the
    same cumulative sum picks the same outcome.
    """
    u = chance_uniform(key)
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if u < acc:
            return outcome
    return outcomes[-1][0]


def resolve_chance(game: Game, state: Any) -> Any:
    """Return the chance outcome the state's own seed selects for its next random event."""
    return game.sample_chance(state, chance_key(state.seed, state.draws))


def agent_rng(seed: int, seat: int) -> random.Random:
    """Return the private RNG of an AI seat: a local instance derived from the game seed."""
    return random.Random(splitmix64((seed & MASK64) ^ splitmix64(seat + 1)))


def is_listed(action: Any, legal: Sequence[Any]) -> bool:
    """Return True when ``action`` is one of ``legal`` exactly, as JSON (so ``False`` or ``0.0``
    never pass for ``0``: a logged action is always the canonical one)."""
    try:
        key = json.dumps(action, sort_keys=True)
    except (TypeError, ValueError):
        return False
    return any(json.dumps(a, sort_keys=True) == key for a in legal)


def public_events(events: Sequence[Event]) -> list[Event]:
    """Return the events every seat and onlooker may see (drops ``private_to`` events)."""
    return [e for e in events if "private_to" not in e]


@dataclass
class Playthrough:
    """A finished (or stopped) game: its final state and the full log, chance included."""

    state: Any
    log: list[tuple[int, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


ViewFn = Callable[[Any, int], dict[str, Any]]


def play(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    observe: ViewFn | None = None,
    max_steps: int = 1_000_000,
    keep_events: bool = False,
) -> Playthrough:
    """Play a whole game: chance from the state's seed, each seat from its agent; return it.

    ``observe(state, seat)`` builds what an agent sees (default: ``game.observe``). Seats owing
    an action at the same time (secret choices) are asked in ascending order, each with its
    own view, which never contains another seat's pending choice.
    """
    state = game.setup(len(agents), seed, options)
    look: ViewFn = observe or game.observe
    rngs = [agent_rng(seed, s) for s in range(len(agents))]
    out = Playthrough(state)
    for _ in range(max_steps):
        movers = game.to_move(state)
        if not movers:
            break
        seat = movers[0]
        if seat == CHANCE:
            action = resolve_chance(game, state)
        else:
            legal = game.legal_actions(state, seat)
            action = agents[seat](look(state, seat), legal, rngs[seat])
        state, events = game.apply(state, seat, action)
        out.log.append((seat, action))
        if keep_events:
            out.events.extend(events)
    else:
        raise RuntimeError(f"{game.name}: no end after {max_steps} steps")
    out.state = state
    return out


def replay(
    game: Game,
    players: int,
    seed: int,
    log: Sequence[tuple[int, Any]],
    options: dict[str, Any] | None = None,
) -> Any:
    """Return the state reached by applying ``log`` (seat, action) pairs to a fresh setup."""
    state = game.setup(players, seed, options)
    for seat, action in log:
        state, _ = game.apply(state, seat, action)
    return state


def freeze(value: Any) -> Hashable:
    """Return a hashable copy of a JSON-like value (lists become tuples, dicts sorted tuples)."""
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    hashable: Hashable = value
    return hashable
