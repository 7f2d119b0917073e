"""Token prices from the pricing file (model -> USD per million tokens); never hard-coded."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from pydantic import Field, RootModel

from evals.core.loading import load_model
from evals.core.model import FrozenModel
from evals.core.usage import Usage


class Price(FrozenModel):
    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cache_read: float = Field(default=0, ge=0)
    cache_write: float = Field(default=0, ge=0)
    source: str | None = Field(default=None, description="where the rates are published")
    as_of: date | None = Field(default=None, description="the date the rates took effect or were read")


class Pricing(RootModel[dict[str, Price]]):
    def price(self, model: str) -> Price | None:
        """The model's price; a dated snapshot id (claude-sonnet-4-5-20250929) falls back to its alias."""
        if model in self.root:
            return self.root[model]
        aliases = [name for name in self.root if model.startswith(name + "-")]
        return self.root[max(aliases, key=len)] if aliases else None

    def cost(self, model: str | None, usage: Usage) -> float | None:
        """USD for the usage, or None when the model has no price (shown as unknown, not 0)."""
        if model is None:
            return 0.0 if usage == Usage() else None
        price = self.price(model)
        if price is None:
            return None
        return round(
            (
                usage.input_tokens * price.input
                + usage.output_tokens * price.output
                + usage.cache_read_input_tokens * price.cache_read
                + usage.cache_creation_input_tokens * price.cache_write
            )
            / 1_000_000,
            6,
        )


def load_pricing(path: Path) -> Pricing:
    return load_model(Pricing, path)
