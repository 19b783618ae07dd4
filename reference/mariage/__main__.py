"""``python -m mariage``: the command line."""

from .cli import main

raise SystemExit(main())
