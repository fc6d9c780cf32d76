"""Research tools: balance sweeps over option grids, their statistics, plots and reports.

``sweep`` plays every cell of an option grid with compiled policies (locally on the
batched engine, or as Ray tasks with ``ray_backend``) into a tidy results table;
``stats`` computes win rates with Wilson intervals, first-seat advantage, margins,
lengths and Hispania's difficulty effects; ``report`` draws the plots and writes a
Markdown report. Heavy imports (matplotlib, ray, tqdm) happen inside the functions
that need them.
"""
