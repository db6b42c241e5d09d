"""mc-build's result (bridge/helpers/build.js): a blueprint placed from the inventory, read back
cell by cell. World blocks: x east, y up, z south."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.world.models import Model


class BuildCell(Model):
    x: int
    y: int
    z: int
    block: str = Field(description="what the cell must hold")


class UnbuiltCell(BuildCell):
    now: str | None = Field(description="what the cell holds; None when not loaded")
    reason: str = Field(description="why it was not placed")


class BuildReport(Model):
    cells: int
    right: int = Field(description="cells holding their block, read back after building")
    share: float = Field(description="right / cells")
    placed: list[BuildCell] = Field(description="cells this call placed, in order")
    missing: list[UnbuiltCell] = Field(description="empty cells not placed: nothing to place, or to place against")
    wrong: list[UnbuiltCell] = Field(description="cells another block holds")
    stop_reason: Literal["completed", "timeout", "stopped"]
