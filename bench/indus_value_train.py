"""Train Indus's learned value (engine/indus/ai/value.py) on self-play positions.

Usage: python bench/indus_value_train.py /tmp/indus_positions.pkl [more.pkl ...] [--players 2]
       [--epochs 12] [--hidden 32] [--out engine/indus/ai/value_2p.npz] [--seed 1]

Every position is seen from every seat. The ruin network learns each ruin's final payout (mine
minus the others'); the square network and the global term learn the prisoner points still to be
taken. Plain numpy (Adam, mean squared error, mini-batches); the last tenth of the games is held
out and the script prints the held-out error beside the error of "the game ends now".
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engine.indus.ai.playout import Sim
from engine.indus.ai.value import GLOBAL_FEATURES, RUIN_FEATURES, SQUARE_FEATURES, Model, encode


def dataset(paths: list[str], players: int) -> tuple[list[tuple[np.ndarray, ...]], int]:
    """Return per game (ruin X, ruin y, square X, global X, prisoner y) and the game count."""
    out = []
    for path in paths:
        with open(path, "rb") as fh:
            games = pickle.load(fh)
        for seen, final in games:
            if not seen or seen[0].players != players:
                continue
            sims = [Sim(s) for s in seen]
            end = Sim(final)
            for me in range(players):
                enc = encode(sims, me)
                fin = encode([end], me)
                n, r, _ = enc.ruins.shape
                ruin_y = np.repeat(fin.payout / 10.0, n, axis=0)
                pris_y = (fin.prison[0] - enc.prison) / 10.0
                out.append((enc.ruins.reshape(n * r, -1), ruin_y.reshape(-1), enc.squares, enc.globals, pris_y))
    return out, len(out) // players


class Adam:
    """Adam over a dict of arrays."""

    def __init__(self, params: dict[str, np.ndarray], lr: float) -> None:
        self.p, self.lr, self.t = params, lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            self.p[k] -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def fit(p: dict[str, np.ndarray], n: int, batch: int, epochs: int, rng: np.random.Generator,
        grads: Callable[[np.ndarray], dict[str, np.ndarray]], report: Callable[[int], str]) -> dict[str, np.ndarray]:
    """Fit ``p`` by Adam over ``n`` rows in shuffled mini-batches (``grads`` of a batch's row
    indices), the step cut by 4 for the last two epochs; print ``report`` after each epoch."""
    opt = Adam(p, 2e-3)
    for ep in range(epochs):
        order = rng.permutation(n)
        for i in range(0, n, batch):
            opt.step(grads(order[i:i + batch]))
        if ep == epochs - 3:
            opt.lr /= 4
        print(report(ep))
    return p


def train_ruins(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, rng: np.random.Generator,
                xv: np.ndarray, yv: np.ndarray) -> dict[str, np.ndarray]:
    """Fit the ruin network (one row per ruin)."""
    p = {"r1": rng.normal(0, 1 / np.sqrt(RUIN_FEATURES), (RUIN_FEATURES, hidden)).astype(np.float32),
         "rb1": np.zeros(hidden, np.float32),
         "r2": rng.normal(0, 1 / np.sqrt(hidden), (hidden, 1)).astype(np.float32),
         "rb2": np.zeros(1, np.float32)}

    def grads(idx: np.ndarray) -> dict[str, np.ndarray]:
        xb, yb = x[idx], y[idx]
        z = xb @ p["r1"] + p["rb1"]
        h = np.maximum(z, 0)
        out = (h @ p["r2"])[:, 0] + p["rb2"][0]
        d = 2 * (out - yb) / len(idx)
        dh = d[:, None] @ p["r2"].T * (z > 0)
        return {"r1": xb.T @ dh, "rb1": dh.sum(0), "r2": h.T @ d[:, None], "rb2": np.array([d.sum()], np.float32)}

    def report(ep: int) -> str:
        hv = np.maximum(xv @ p["r1"] + p["rb1"], 0)
        err = np.sqrt(np.mean(((hv @ p["r2"])[:, 0] + p["rb2"][0] - yv) ** 2))
        return f"ruins epoch={ep} heldout_rmse={err * 10:.3f} points"

    return fit(p, len(x), 512, epochs, rng, grads, report)


def train_squares(xs: np.ndarray, xg: np.ndarray, y: np.ndarray, hidden: int, epochs: int,
                  rng: np.random.Generator, vs: np.ndarray, vg: np.ndarray, vy: np.ndarray) -> dict[str, np.ndarray]:
    """Fit the square network and the global term (the sum over squares is the prediction)."""
    p = {"s1": rng.normal(0, 1 / np.sqrt(SQUARE_FEATURES), (SQUARE_FEATURES, hidden)).astype(np.float32),
         "sb1": np.zeros(hidden, np.float32),
         "s2": rng.normal(0, 0.1 / np.sqrt(hidden), (hidden, 1)).astype(np.float32),
         "sb2": np.zeros(1, np.float32),
         "g": np.zeros((GLOBAL_FEATURES,), np.float32)}

    def grads(idx: np.ndarray) -> dict[str, np.ndarray]:
        sb, gb, yb = xs[idx], xg[idx], y[idx]
        z = sb @ p["s1"] + p["sb1"]
        h = np.maximum(z, 0)
        out = (h @ p["s2"])[..., 0].sum(1) + 36 * p["sb2"][0] + gb @ p["g"]
        d = 2 * (out - yb) / len(idx)
        dsq = np.broadcast_to(d[:, None], h.shape[:2])
        dh = dsq[..., None] * p["s2"][:, 0][None, None, :] * (z > 0)
        return {"s1": np.einsum("nqf,nqh->fh", sb, dh), "sb1": dh.sum((0, 1)),
                "s2": np.einsum("nqh,nq->h", h, dsq)[:, None], "sb2": np.array([36 * d.sum()], np.float32),
                "g": gb.T @ d}

    def report(ep: int) -> str:
        hv = np.maximum(vs @ p["s1"] + p["sb1"], 0)
        pred = (hv @ p["s2"])[..., 0].sum(1) + 36 * p["sb2"][0] + vg @ p["g"]
        err = np.sqrt(np.mean((pred - vy) ** 2))
        zero = np.sqrt(np.mean(vy**2))
        return f"prisoners epoch={ep} heldout_rmse={err * 10:.3f} points (zero guess {zero * 10:.3f})"

    return fit(p, len(xs), 256, epochs, rng, grads, report)


def main() -> None:
    """Load, train, report and save."""
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="+")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    rows, games = dataset(args.data, args.players)
    cut = int(0.9 * games) * args.players
    tr, va = rows[:cut], rows[cut:]

    def cat(part: list[tuple[np.ndarray, ...]], k: int) -> np.ndarray:
        return np.concatenate([r[k] for r in part])

    xr, yr, xs, xg, yp = (cat(tr, k) for k in range(5))
    vr, vyr, vs, vg, vyp = (cat(va, k) for k in range(5))
    print(f"games={games} positions={len(xs)} ruin_rows={len(xr)}")
    base = np.sqrt(np.mean((vr[:, 9] - vyr) ** 2))
    print(f"ruins baseline (payout now) heldout_rmse={base * 10:.3f} points")
    pr = train_ruins(xr, yr, args.hidden, args.epochs, rng, vr, vyr)
    ps = train_squares(xs, xg, yp, args.hidden // 2, args.epochs, rng, vs, vg, vyp)
    model = Model(**{k: v.astype(np.float32) for k, v in {**pr, **ps}.items()})
    if args.out:
        # the square bias is per square; Model sums it over the squares itself
        model.save(Path(args.out))
        print(f"saved {args.out}")


if __name__ == "__main__":
    main()
