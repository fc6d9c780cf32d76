"""mkdocs-gen-files script: the game pages, their pictures, the CLI page, the balance study.

Run by ``mkdocs build`` (``plugins: gen-files`` in ``mkdocs.yml``); everything it writes
exists only in the built site, made from the code at build time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mkdocs_gen_files

sys.path.insert(0, str(Path(__file__).resolve().parent))

import balancestudy
import clipage
import gamepage

import boardsim

names = [g for g in boardsim.list_games() if g in gamepage.MID_GAME] or boardsim.list_games()
with mkdocs_gen_files.open("games/index.md", "w") as f:
    f.write(gamepage.index_page(names))
for name in names:
    with mkdocs_gen_files.open(f"games/{name}.md", "w") as f:
        f.write(gamepage.page(name))
    mkdocs_gen_files.set_edit_path(f"games/{name}.md", f"../src/boardsim/games/{name}/layout.py")
    for filename, data in gamepage.pictures(name).items():
        with mkdocs_gen_files.open(f"games/img/{filename}", "wb") as f:
            f.write(data)

with mkdocs_gen_files.open("cli.md", "w") as f:
    f.write(clipage.page())

study, images = balancestudy.run()
with mkdocs_gen_files.open("guides/balance.md", "a") as f:
    f.write(study)
for filename, data in images.items():
    with mkdocs_gen_files.open(f"guides/img/{filename}", "wb") as f:
        f.write(data)
