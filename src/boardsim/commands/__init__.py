"""Subcommands of the ``boardsim`` command, one module each (see ``boardsim.cli``)."""
