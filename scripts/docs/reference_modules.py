"""The modules of the API reference, by section (the test of the site checks each public
name of these has an entry with a docstring)."""

from __future__ import annotations

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Making games and environments", ("boardsim", "boardsim.games")),
    (
        "Environments",
        (
            "boardsim.wrappers",
            "boardsim.wrappers.pettingzoo",
            "boardsim.wrappers.gymnasium",
            "boardsim.wrappers.vector",
            "boardsim.wrappers.sb3",
            "boardsim.wrappers.spaces",
            "boardsim.wrappers.openspiel",
            "boardsim.registration",
        ),
    ),
    (
        "Agents and training",
        (
            "boardsim.agents",
            "boardsim.agents.heuristic",
            "boardsim.agents.mcts",
            "boardsim.agents.ppo",
            "boardsim.agents.network",
            "boardsim.training",
            "boardsim.training.ppo",
            "boardsim.training.alphazero",
            "boardsim.training.networks",
            "boardsim.training.replay",
            "boardsim.training.imitation",
            "boardsim.training.checkpoint",
            "boardsim.training.rllib",
            "boardsim.training.vec",
        ),
    ),
    (
        "Research",
        (
            "boardsim.research",
            "boardsim.research.sweep",
            "boardsim.research.report",
            "boardsim.research.stats",
            "boardsim.research.metrics",
            "boardsim.research.traces",
            "boardsim.research.skill",
            "boardsim.research.metagame",
            "boardsim.research.tune",
            "boardsim.research.tournament",
            "boardsim.research.reuse",
            "boardsim.research.ray_backend",
            "boardsim.research.notebooks",
        ),
    ),
    (
        "Pictures and replays",
        (
            "boardsim.render",
            "boardsim.render.scene",
            "boardsim.render.placement",
            "boardsim.render.animate",
            "boardsim.render.common",
            "boardsim.render.geometry",
            "boardsim.replay",
        ),
    ),
    (
        "Engine (for game authors)",
        (
            "boardsim.core.game",
            "boardsim.core.options",
            "boardsim.core.errors",
            "boardsim.core.kernels",
            "boardsim.core.header",
            "boardsim.core.data",
            "boardsim.core.rng",
            "boardsim.core.batch",
            "boardsim.core.engine",
            "boardsim.core.search.tree",
            "boardsim.core.search.guided",
            "boardsim.core.search.games",
            "boardsim.core.search.relabel",
            "boardsim.core.record",
            "boardsim.core.seats",
            "boardsim.core.nn",
            "boardsim.core.network",
            "boardsim.core.bound",
            "boardsim.core.reference",
            "boardsim.core.jit",
            "boardsim.testing",
            "boardsim.files",
        ),
    ),
)

MODULES: tuple[str, ...] = tuple(m for _, mods in SECTIONS for m in mods)
