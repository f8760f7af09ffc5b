import sys

from turnsignal.cli import main

sys.exit(main())
