"""Workers start as new programs (spawn), never as forks: DESIGN.md's process model 1, and what
the articles' pools must do once CUDA is up in the parent."""

from __future__ import annotations

import multiprocessing
from multiprocessing.context import SpawnContext

# Seeds of a and b, as reference/pool_prep_inputs.hpp's vector_add_seeds.
SEED_A = 0xA11CE
SEED_B = 0xB0B


def spawn() -> SpawnContext:
    return multiprocessing.get_context("spawn")
