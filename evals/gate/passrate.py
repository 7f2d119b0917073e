"""pass@k and pass^k, one definition for the run and the baseline alike.

From n trials of which c passed, the unbiased estimates (Chen et al. 2021 for pass@k):

- pass@k = 1 - C(n-c, k) / C(n, k): the chance that at least one of k fresh trials passes;
- pass^k = C(c, k) / C(n, k): the chance that all k pass (what a user-facing agent is judged on).

At k = n they reduce to "any passed" and "all passed". Undefined (None) when k exceeds n, since n
draws say nothing about k > n, and when no trial was decided.
"""

from __future__ import annotations

from math import comb

from evals.core.model import FrozenModel


def pass_at_k(n: int, c: int, k: int) -> float | None:
    if k < 1 or k > n:
        return None
    return round(1 - comb(n - c, k) / comb(n, k), 4)


def pass_pow_k(n: int, c: int, k: int) -> float | None:
    if k < 1 or k > n:
        return None
    return round(comb(c, k) / comb(n, k), 4)


class PassRates(FrozenModel):
    """pass@1, pass@k and pass^k of one side of a comparison, at one k."""

    pass_at_1: float | None = None
    pass_at_k: float | None = None
    pass_pow_k: float | None = None

    @classmethod
    def estimate(cls, n: int, c: int, k: int) -> PassRates:
        if n == 0:
            return cls()
        return cls(pass_at_1=round(c / n, 4), pass_at_k=pass_at_k(n, c, k), pass_pow_k=pass_pow_k(n, c, k))

    @classmethod
    def of_flags(cls, flags: list[bool | None], k: int | None = None) -> PassRates:
        """Rates from per-trial pass flags; a trial whose unscored parts could flip it is left out."""
        decided = [f for f in flags if f is not None]
        return cls.estimate(len(decided), sum(decided), len(decided) if k is None else k)
