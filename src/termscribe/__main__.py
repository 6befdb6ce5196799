"""``python -m termscribe``: the command line."""

import sys

from .cli import main

if __name__ == "__main__":  # not when a tool imports every module of the package
    sys.exit(main())
