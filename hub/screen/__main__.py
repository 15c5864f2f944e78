"""``python -m hub.screen``: the hub screen program (:func:`hub.screen.main`)."""

import sys

from hub.screen import main

if __name__ == "__main__":
    sys.exit(main())
