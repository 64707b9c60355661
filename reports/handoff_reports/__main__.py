import sys

from handoff_reports.cli import main

sys.exit(main())
