"""``python -m turnsignal``: the command line, as ``turnsignal`` and
``python -m turnsignal.cli`` run it."""

import sys

from turnsignal.cli import main

sys.exit(main())
