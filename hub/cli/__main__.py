"""``python -m hub.cli``: the organizer's command line."""

import sys

from hub.cli import main

if __name__ == "__main__":
    sys.exit(main())
