"""``python -m termscribe.cli``: the command line, as ``python -m termscribe``."""

import sys

from . import main

if __name__ == "__main__":  # not when a tool imports every module of the package
    sys.exit(main())
