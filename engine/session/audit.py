"""A stored game's whole log replayed through the rules, summed up so two copies can be compared.

Moving a server's history to another database (``python -m db.copy``) is trusted only if every game
replays on the target as it does on the source. :func:`audit` replays the log the way a table is
loaded (:func:`engine.session.loading.fill`, never a second replay), from the setup rather than a
snapshot, so a cached snapshot cannot hide a damaged log, and returns an :class:`Audit`: the final
state's digest, how many actions were replayed, whether the game is over, and why a log that
cannot be replayed failed. Equal audits mean equal games as far as the rules can tell.

Pure: no store, no Discord, no clock; the caller loads the :class:`StoredTable`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.session.contract import GameSpec, StoredTable
from engine.session.games import SPECS
from engine.session.loading import fill
from engine.session.table import Table

__all__ = ["Audit", "audit", "audit_all"]


@dataclass(frozen=True, slots=True)
class Audit:
    """What replaying one stored game gave.

    ``digest`` is the SHA-256 of ``GAME.dumps`` of the final state ("" for a game that never started
    or could not be replayed); ``error`` says why the log could not be replayed (None: it could).
    """

    table_id: int
    game: str
    status: str
    actions: int
    over: bool
    digest: str
    error: str | None = None

    @property
    def as_recorded(self) -> bool:
        """Return True when the log replays and a game stored as finished is over by the rules.

        A game still playing may be over already: its last action was written but not yet its
        result (the session writes that on its next ``auto`` timer).
        """
        return self.error is None and (self.status != "finished" or self.over)


def audit(stored: StoredTable, specs: Mapping[str, GameSpec] = SPECS) -> Audit:
    """Return the audit of ``stored``: its whole action log replayed from the seed.

    ``stored`` must hold the whole log (no snapshot): raise ValueError otherwise.
    """
    if stored.snapshot is not None:
        raise ValueError("an audit replays the whole log: load the table without its snapshot")

    def failed(reason: str) -> Audit:
        return Audit(stored.id, stored.game, stored.status, len(stored.actions), False, "", reason)

    spec = specs.get(stored.game)
    if spec is None:
        return failed(f"unknown game {stored.game!r}")
    if stored.seed is None:
        # A lobby (or a table cancelled before it started): nothing was dealt, nothing to replay.
        return failed("actions without a seed") if stored.actions else \
            Audit(stored.id, stored.game, stored.status, 0, False, "")
    table = Table(stored.id, spec, stored.guild_id, stored.channel_id, stored.host_id, {}, {}, stored.status, [])
    try:
        # fill() replays only a table in play; an ended game's log is the same log, cut where it ended.
        fill(table, replace(stored, status="playing", timers=()))
        dump = spec.game.dumps(table.state)
        over = spec.game.is_over(table.state)
    except Exception as exc:  # a damaged log may fail anywhere in the rules: report it, check the rest
        return failed(f"{type(exc).__name__}: {exc}")
    return Audit(stored.id, stored.game, stored.status, table.version, over,
                 hashlib.sha256(dump.encode("utf-8")).hexdigest())


def audit_all(tables: Sequence[StoredTable]) -> list[Audit]:
    """Return the audit of each of ``tables`` (one call per batch: cheap to send to a worker process)."""
    return [audit(stored) for stored in tables]
