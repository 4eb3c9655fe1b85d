"""Field types the request bodies share, with the lengths the service accepts (shown in the
OpenAPI document): a name or a short label, a note, and a long text such as feedback."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

Name = Annotated[str, Field(max_length=500)]
Note = Annotated[str, Field(max_length=4000)]
LongText = Annotated[str, Field(max_length=20000)]
