"""The long fuzz of untrusted states: forged saved states, each try in a child process.

    python scripts/fuzz_states.py --tries 20000 --seed 1 --json runs/fuzz.json
    python scripts/fuzz_states.py --seed 1 --replay 1234    # one try again, here

Prints the counts (tries, refused, accepted and played out, errors, crashes, hangs,
closure) and the failures; exits 1 if anything but a refusal or a clean play-out
happened. What a try does: :mod:`boardsim.fuzz`. One worker process, numba on one thread.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from boardsim.fuzz import main

    sys.exit(main())
