"""The figures of a run: latencies, rate-limited calls per move, 429s, invalid requests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.latency.run import Run

PUBLIC_P99_TARGET_MS = 2000.0  # a table "is sustained" while its public updates stay under this at p99
ACK_WINDOW_S = 3.0  # Discord fails an interaction not answered within this


def pct(samples: list[float], q: float) -> float:
    """Return the q-quantile (nearest rank) of samples, in milliseconds; nan when empty."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


@dataclass
class Figures:
    """The headline figures of one size."""

    tables: int
    per_move: float
    p50_click_ms: float
    p99_click_ms: float
    p50_public_ms: float
    p99_public_ms: float
    r429: int
    invalid: int
    ai_load: dict[str, Any] | None = None  # the --ai-load tables' figures

    def line(self) -> str:
        """The machine-read summary line (issue 17's keys, then the AI load's when there was one)."""
        load = self.ai_load
        tail = f" ai_load={load['tables']} ai_moves_per_s={load['per_s']:.1f}" if load else ""
        return (f"latency tables={self.tables} limited_calls_per_move={self.per_move:.2f} "
                f"p99_click_ms={self.p99_click_ms:.0f} p99_public_ms={self.p99_public_ms:.0f} "
                f"r429={self.r429} invalid={self.invalid}{tail}")

    @property
    def sustained(self) -> bool:
        """True when public updates stayed under the target and Discord refused nothing."""
        return self.p99_public_ms < PUBLIC_P99_TARGET_MS and self.invalid == 0


def report(run: Run, meta: dict[str, Any]) -> Figures:
    """Print one size's figures and return the headline ones."""
    args, setup, tally = run.args, run.setup, run.tally
    clicks = run.clicks
    acks = [c.acked - c.sent for c in clicks if c.acked is not None]
    moves = [c for c in clicks if c.moves]
    public = [c.public - c.sent for c in moves if c.public is not None]
    unshown = sum(1 for c in moves if c.posted is not None and c.public is None)
    elapsed = meta["elapsed"]
    units = max(tally.units, 1)
    limited = sum(tally.limited.values())
    seats = f"{setup.humans} people" + (f" + {len(setup.ai)} bots ({', '.join(setup.ai)})" if setup.ai else "")
    limits = "Discord's rate limits ON (fake and bot)" if args.rate_limited else "NO rate limits (fake never refuses)"
    print(f"\n## {setup.name}: {run.n_tables} tables of {seats}; {limits}")
    drained = f" + {run.drained_s:.0f} s until the start burst was sent" if run.drained_s >= 0.5 else ""
    print(f"opened in {meta['setup_s']:.1f} s; started over {run.stagger:g} s; measured {elapsed:.1f} s after "
          f"{run.warmup:g} s of warm-up{drained} (CPU {meta['cpu'] / elapsed:.0%} of one core); {len(clicks)} presses "
          f"({len(clicks) / elapsed:.0f}/s), {tally.units} {setup.unit}s ({tally.units / elapsed:.1f}/s), "
          f"{meta['finished']} games finished")
    print(f"\n{'from the press':<44} {'n':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    rows = [("to the interaction's response (any press)", acks),
            ("to the public message showing the move", public)]
    for name, samples in rows:
        print(f"{name:<44} {len(samples):>7} {pct(samples, 0.5):>8.0f} {pct(samples, 0.99):>8.0f} "
              f"{pct(samples, 1.0):>8.0f}")
    deferred = sum(1 for c in clicks if c.deferred)
    late = sum(1 for s in acks if s > ACK_WINDOW_S)
    print(f"responses that were deferrals: {deferred}; later than Discord's 3 s: {late}; presses refused by the "
          f"fake or never answered: {tally.failed_presses}; moves whose public redraw was still waiting at the "
          f"end: {unshown}")
    print(f"\n{'rate-limited REST calls (bot token)':<44} {'total':>7} {'per ' + setup.unit:>10}")
    for kind, total in sorted(tally.limited.items()):
        print(f"{kind:<44} {total:>7} {total / units:>10.2f}")
    print(f"{'all':<44} {limited:>7} {limited / units:>10.2f}")
    print(f"429s received: {tally.r429}; invalid requests (401/403/429) since the tables started: "
          f"{meta['invalid']}; edits coalesced in the outbox: {meta['coalesced']}; calls still queued at the "
          f"end: {meta['backlog']}")
    for kind, count in sorted(run.invalid.items()):
        print(f"  invalid: {count} x {kind}")
    load = meta.get("load")
    if load:
        print(f"AI load: {load['tables']} tables of Hard bots only, {load['decisions']} Hard decisions measured "
              f"({load['per_s']:.1f}/s) on {load['workers']} worker process(es); decisions past the AI budget "
              f"(any table, the timeout agent played): {load['over_budget']}; games started {load['games']}, "
              f"finished {load['finished']}; their rate-limited calls (not counted above): {load['limited']}")
    lag, wire, waited = tally.loop_lag, tally.on_wire, meta.get("cpu_wait")
    print(f"event loop lag (clock ticker woke late by): p50 {pct(lag, 0.5):.0f} ms, p99 {pct(lag, 0.99):.0f} ms; "
          f"outbox calls on the wire (budget taken to call ended, recording the message included): "
          f"p50 {pct(wire, 0.5):.0f} ms, p99 {pct(wire, 0.99):.0f} ms; to the requests' end (budget given "
          f"back): p50 {pct(tally.requests, 0.5):.0f} ms, p99 {pct(tally.requests, 0.99):.0f} ms")
    if waited is not None:
        print(f"the event loop's thread waited {waited:.1f} s for a CPU in the {elapsed:.0f} s measured "
              f"({waited / elapsed:.0%}; other processes' work on the machine)")
    return Figures(run.n_tables, limited / units, pct(acks, 0.5), pct(acks, 0.99), pct(public, 0.5),
                   pct(public, 0.99), tally.r429, meta["invalid"], load)


def capacity(figures: list[Figures]) -> str:
    """State the largest table count measured whose public updates stayed under 2 s at p99."""
    held = [f.tables for f in figures if f.sustained]
    failed = [f.tables for f in figures if not f.sustained]
    if not held:
        return (f"capacity: no size measured kept public updates under {PUBLIC_P99_TARGET_MS / 1000:g} s at p99 "
                f"(smallest tried: {min(f.tables for f in figures)})")
    best = max(held)
    above = min((n for n in failed if n > best), default=None)
    tail = f"; {above} did not" if above is not None else " (the largest size tried)"
    return (f"capacity: {best} tables sustained with public updates p99 < {PUBLIC_P99_TARGET_MS / 1000:g} s and "
            f"0 invalid requests{tail}")
