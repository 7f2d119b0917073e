"""The one strict base of every typed file and wire format: unknown fields are errors.

A typo in a rubric, a renamed field in a stored record or an extra key in a tool call must fail
where it is read, naming the field, not be dropped silently and surface three stages later.
`FrozenModel` is the same for values that never change once loaded (config, scenario data,
rubrics), so they can be shared between threads and trials without copying.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FrozenModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
