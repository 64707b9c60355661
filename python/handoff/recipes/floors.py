"""The floors of tensor_transfer's Python recipes, as the C++ rows of the same points have them."""

from __future__ import annotations

from handoff.benchmark import Floor, Point


def channel_floor(channel_ceiling: str, memory: str, at: Point) -> Floor:
    """As the C++ rows' floor at the point: the tensor's bytes through the channel, and for a
    device tensor its pageable copies down and back up."""
    size = float(at["bytes"])
    terms = {channel_ceiling: size}
    if memory == "device":
        terms |= {"pcie_d2h_pageable": size, "pcie_h2d_pageable": size}
    return Floor(bytes=terms)
