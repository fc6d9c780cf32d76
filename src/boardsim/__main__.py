"""``python -m boardsim`` is the ``boardsim`` command."""

from boardsim.cli import main

raise SystemExit(main())
