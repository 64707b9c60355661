"""python -m handoff [handoff_bench flags]: the Python recipes' rows (python_seed and the
article's channels), measured by the suite's driver. --handoff-profile=smoke (or --handoff-smoke)
picks their tiny sizes, as it does the C++ rows'."""

from __future__ import annotations

import sys

from handoff.recipes import seed_benchmarks
from handoff.runner import main

if __name__ == "__main__":
    smoke = any(
        argument in ("--handoff-profile=smoke", "--handoff-smoke") for argument in sys.argv[1:]
    )
    sys.exit(main(seed_benchmarks(smoke)))
