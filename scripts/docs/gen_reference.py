"""mkdocs-gen-files script: one API reference page a public module, and their navigation.

The pages hold mkdocstrings' ``::: module`` directive: the entries are written from the
docstrings and type hints when the site is built.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mkdocs_gen_files

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_modules import SECTIONS

nav = mkdocs_gen_files.Nav()
for section, modules in SECTIONS:
    for module in modules:
        parts = module.split(".")
        doc = Path("reference", *parts[1:] or ["boardsim"]).with_suffix(".md")
        title = module if len(parts) > 1 else "boardsim (top level)"
        nav[(section, title)] = doc.relative_to("reference").as_posix()
        with mkdocs_gen_files.open(doc, "w") as f:
            f.write(f"# `{module}`\n\n::: {module}\n")
            if module == "boardsim":
                # what a user calls first (make_game, make_env, ...) leads, in the order of
                # boardsim.__all__, not attributes, then classes, then functions
                f.write("    options:\n      members_order: __all__\n")
                f.write("      group_by_category: false\n")
        source = Path("src", *parts)
        source = source / "__init__.py" if source.is_dir() else source.with_suffix(".py")
        mkdocs_gen_files.set_edit_path(doc, Path("..") / source)
with mkdocs_gen_files.open("reference/SUMMARY.md", "w") as f:
    f.writelines(nav.build_literate_nav())
