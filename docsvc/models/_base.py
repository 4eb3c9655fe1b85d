from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class WireModel(BaseModel):
    """Base of every wire model: unknown fields are accepted and kept."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)
