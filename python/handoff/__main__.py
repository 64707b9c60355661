"""python -m handoff [handoff_bench flags]: the Python recipes' rows (python_seed and the
article's channels), measured by the suite's driver. --handoff-profile picks their points as it
does the C++ rows': smoke their tiny sizes, default (the main job) the points the report sets
beside the C++ rows, full every point of their sweeps."""

from __future__ import annotations

import sys

from handoff.recipes import seed_benchmarks
from handoff.runner import main, profile_of

if __name__ == "__main__":
    sys.exit(main(seed_benchmarks(profile_of(sys.argv[1:]) == "smoke")))
