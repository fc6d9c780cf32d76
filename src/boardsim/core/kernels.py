"""A game's bundle of compiled kernels, as the generic engine receives it.

The generic engine (:mod:`boardsim.core.engine`) and search (:mod:`boardsim.core.search`)
are ordinary modules: each of their compiled functions takes the game's
:class:`GameKernels` as its first argument ``g`` and calls ``g.legal_mask(...)``,
``g.apply_action(...)``, reads ``g.NUM_ACTIONS``, and so on. numba resolves those
at compile time: ``g``'s type names the game, its attributes are the game's own
``@jit`` functions (static calls, exactly as if the engine had been written in the
game's module) and its sizes are compile-time constants.

Why a type of our own and not a namedtuple: numba keys a namedtuple of functions by
the functions' identities, which differ in every process, so the on-disk cache
(``cache=True``) never hits. :class:`GameKernelsType` is keyed by the name of the
module that built the bundle, so a game's compiled engine is cached across processes
like any other kernel; the module is imported again to find the kernels when a
cached engine is compiled for the first time in a process.

Under ``NUMBA_DISABLE_JIT=1`` nothing here is used by numba: ``g`` is an ordinary
Python object whose attributes are the game's (then plain Python) functions.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from numba.core import types
from numba.core.dispatcher import Dispatcher
from numba.core.typing.templates import AttributeTemplate
from numba.extending import (
    NativeValue,
    infer_getattr,
    lower_getattr_generic,
    models,
    register_model,
    typeof_impl,
    unbox,
)

from boardsim.core.data import forget_stale_compiled_code, source_fingerprint

# the sizes every game declares (compile-time constants in the engine)
SIZES = ("STATE_SIZE", "NUM_ACTIONS", "OBS_SIZE", "MAX_CHANCE_OUTCOMES", "MAX_PLAYERS")

# the kernels every game provides, with what each does (the engine's contract)
KERNELS: dict[str, str] = {
    "init": "init(state, params, seed): lay out a new game on a zeroed, seeded state",
    "legal_mask": "legal_mask(state, params, mask) -> int: fill the uint8 mask, return the count",
    "apply_action": "apply_action(state, params, action): one decision of the player to move",
    "chance_weights": "chance_weights(state, params, outcomes, weights) -> int: at a chance "
    "node, the outcomes and their integer weights",
    "apply_chance": "apply_chance(state, params, outcome): make one chance outcome happen",
    "observe": "observe(state, params, player, out): what player may see (float32)",
    "returns": "returns(state, params, out): each player's cumulative return (float64)",
    "heuristic_action": "heuristic_action(state, params, mask, prng) -> int: the game's "
    "rule-based player (mask: scratch; prng: two words of generator)",
    "determinize": "determinize(state, params, player, prng): replace what player cannot "
    "see by a consistent sample (a no-op without hidden information)",
    "evaluate_position": "evaluate_position(state, params, out): each player's standing in "
    "[-1, 1] for a position that is not over",
    "search_prune": "search_prune(state, params, mask): clear actions a search never needs",
    "validate": "validate(state, params, where) -> int: 0 when every field of an untrusted "
    "state is in range and coherent with the others and with params (so that every kernel "
    "handles it safely), else the code (> 0) of the first check that fails, with the index "
    "and the value at fault written to where[0], where[1] (int64)",
}

# where a game laid out the usual way keeps them (GameKernels.from_modules, from_package)
RULES = (
    "init",
    "legal_mask",
    "apply_action",
    "chance_weights",
    "apply_chance",
    "observe",
    "returns",
)
POLICY = ("heuristic_action",)
SEARCH = ("determinize", "evaluate_position", "search_prune")
VALIDATE = ("validate",)
# a game's package laid out the usual way (docs/adding-a-game.md): these modules, each
# under this name, from which :meth:`GameKernels.from_package` builds its bundle
USUAL_LAYOUT = ("rules", "policy", "search", "validate", "layout", "data")

_BUNDLES: dict[str, GameKernels] = {}


class GameKernels:
    """The compiled kernels and sizes of one game, handed to the generic engine.

    A game laid out the usual way names its package as its kernels and gets its bundle
    from :meth:`from_package`. Otherwise build one per game, at module level of the
    game's face module (for example ``engine.py``)::

        KERNELS = GameKernels(__name__, sizes=layout, data_files=data.DATA_FILES,
                              init=rules.init, legal_mask=rules.legal_mask, ...)

    ``module`` must be the name of the module the bundle is assigned in (numba
    finds the bundle again by it); ``sizes`` is any object with the attributes of
    :data:`SIZES`; every name of :data:`KERNELS` must be given. ``data_files``
    are the data the kernels freeze into the cache.

    ``state_errors`` maps each code ``validate`` returns to its message, a template of
    ``{index}`` and ``{value}`` (the two words it writes); see :mod:`boardsim.core.validation`.

    ``chosen_in``: the modules whose sources choose the kernels, so that their edits change
    the fingerprint: ``module`` by default (a game's ``engine.py``); for a bundle built by
    convention (:meth:`from_package`), the modules of the layout, never the package's
    ``__init__`` (its definition and everything it imports only the Python side reads).

    ``sources`` are every module the kernels can be built from (:func:`kernel_modules`);
    ``fingerprint`` digests them and the data files. Building the bundle drops the game's
    own cached kernels when the fingerprint changed since they were compiled
    (:func:`boardsim.core.data.forget_stale_compiled_code`), and the engine compiled for
    the game is cached under the fingerprint (:class:`GameKernelsType`).
    """

    # the members, as attributes (for readers and editors; set from the arguments)
    STATE_SIZE: int
    NUM_ACTIONS: int
    OBS_SIZE: int
    MAX_CHANCE_OUTCOMES: int
    MAX_PLAYERS: int
    init: Callable[..., None]
    legal_mask: Callable[..., int]
    apply_action: Callable[..., None]
    chance_weights: Callable[..., int]
    apply_chance: Callable[..., None]
    observe: Callable[..., None]
    returns: Callable[..., None]
    heuristic_action: Callable[..., int]
    determinize: Callable[..., None]
    evaluate_position: Callable[..., None]
    search_prune: Callable[..., None]
    validate: Callable[..., int]

    def __init__(
        self,
        module: str,
        *,
        sizes: Any,
        data_files: Iterable[Path | str] = (),
        state_errors: Mapping[int, str] | None = None,
        chosen_in: Iterable[str] | None = None,
        **kernels: Callable[..., Any],
    ) -> None:
        missing = [name for name in KERNELS if name not in kernels]
        unknown = sorted(set(kernels) - set(KERNELS))
        if missing or unknown:
            raise TypeError(
                f"{module}: GameKernels needs {', '.join(KERNELS)}"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; unknown {', '.join(unknown)}" if unknown else "")
            )
        self.module = module
        # the game's package: the building module's (engine.py's); from_package: the module
        self.package = module.rpartition(".")[0] or module
        self.state_errors: dict[int, str] = dict(state_errors or {})
        self.members: dict[str, Any] = {}
        for name in SIZES:
            value = getattr(sizes, name, None)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise TypeError(f"{module}: size {name} must be a positive int, got {value!r}")
            self.members[name] = value
        for name, fn in kernels.items():
            if not callable(fn):
                raise TypeError(f"{module}: kernel {name} is not callable: {fn!r}")
            self.members[name] = fn
        faces = [module] if chosen_in is None else list(chosen_in)
        modules = kernel_modules(kernels.values(), face=faces)
        self.sources = [Path(m.__file__) for m in modules if getattr(m, "__file__", None)]
        self.data_files = [Path(f) for f in data_files]
        self.fingerprint = source_fingerprint(self.data_files + self.sources)
        own = _own_modules(modules, kernels.values())
        stamp_dir = _cache_dir_of(kernels["init"]) or Path(self.sources[0]).parent / "__pycache__"
        forget_stale_compiled_code(stamp_dir, self.fingerprint, _cache_dirs(own))
        for name, value in self.members.items():
            setattr(self, name, value)
        self._numba_type_ = GameKernelsType(module, self.fingerprint[:16])
        _BUNDLES[module] = self

    @classmethod
    def from_modules(
        cls,
        module: str,
        *,
        rules: ModuleType,
        policy: ModuleType,
        search: ModuleType,
        sizes: Any,
        validate: ModuleType | None = None,
        data_files: Iterable[Path | str] = (),
        chosen_in: Iterable[str] | None = None,
    ) -> GameKernels:
        """The bundle of a game laid out the usual way: the kernels of :data:`RULES` from
        ``rules``, ``heuristic_action`` from ``policy``, those of :data:`SEARCH` from
        ``search``, ``validate`` and its messages (``STATE_ERRORS``) from ``validate``
        (each under its own name)."""
        if validate is None:
            raise TypeError(
                f"{module}: GameKernels.from_modules needs validate=, the module of the game's "
                "state validator (validate(state, params, where) and STATE_ERRORS; "
                "docs/adding-a-game.md, section 5)"
            )
        found: dict[str, Any] = {}
        for source, names in (
            (rules, RULES),
            (policy, POLICY),
            (search, SEARCH),
            (validate, VALIDATE),
        ):
            for name in names:
                if not hasattr(source, name):
                    raise TypeError(f"{module}: {source.__name__} defines no {name}")
                found[name] = getattr(source, name)
        errors = getattr(validate, "STATE_ERRORS", None)
        return cls(
            module,
            sizes=sizes,
            data_files=data_files,
            state_errors=errors,
            chosen_in=chosen_in,
            **found,
        )

    @classmethod
    def from_package(cls, package: str) -> GameKernels:
        """The bundle of a game whose package is laid out the usual way (:data:`USUAL_LAYOUT`:
        ``rules``, ``policy``, ``search``, ``validate``, the sizes of ``layout`` and the
        ``DATA_FILES`` of ``data``), built once and kept under the package's name: a game
        names it as its kernels (``kernels=__name__`` in its ``__init__``) and writes no
        bundle module of its own. A game laid out otherwise builds its bundle with
        :meth:`from_modules`."""
        found = _BUNDLES.get(package)
        if found is not None:
            return found
        missing = [name for name in USUAL_LAYOUT if not _is_module(f"{package}.{name}")]
        if missing:
            raise TypeError(
                f"{package}: a game's kernels built from its package need the modules "
                f"{', '.join(USUAL_LAYOUT)}; missing {', '.join(missing)} (or build them with "
                "GameKernels.from_modules: docs/adding-a-game.md, section 6)"
            )
        parts = {name: importlib.import_module(f"{package}.{name}") for name in USUAL_LAYOUT}
        built = cls.from_modules(
            package,
            rules=parts["rules"],
            policy=parts["policy"],
            search=parts["search"],
            validate=parts["validate"],
            sizes=parts["layout"],
            data_files=getattr(parts["data"], "DATA_FILES", ()),
            chosen_in=[part.__name__ for part in parts.values()],
        )
        built.package = package
        return built

    def __repr__(self) -> str:
        return f"GameKernels({self.module!r})"

    def __reduce__(self) -> tuple[Callable[[str], GameKernels], tuple[str]]:
        return (bundle, (self.module,))


def bundle(module: str) -> GameKernels:
    """The :class:`GameKernels` built in ``module`` (imported if it was not yet), or built
    from ``module`` when it is a game's package laid out the usual way
    (:meth:`GameKernels.from_package`)."""
    found = _BUNDLES.get(module)
    if found is None:
        imported = importlib.import_module(module)
        found = _BUNDLES.get(module)
        if found is None and getattr(imported, "KERNELS", None) is None and is_game_package(module):
            found = GameKernels.from_package(module)
    if found is None:
        raise LookupError(f"module {module!r} builds no GameKernels under its own name")
    return found


def is_game_package(module: str) -> bool:
    """Whether ``module`` is a package with every module of :data:`USUAL_LAYOUT`."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.submodule_search_locations is None:
        return False
    return all(_is_module(f"{module}.{name}") for name in USUAL_LAYOUT)


def kernel_modules(
    functions: Iterable[Callable[..., Any]], face: str | Iterable[str] | None = None
) -> list[ModuleType]:
    """Every module a game's compiled code can be built from: the modules its kernels
    are defined in, the engine and the search compiled for it, the module (or modules)
    ``face`` that chooses the kernels (the module that builds the bundle, or the modules of
    a package's layout; they may only import them, as Hispania's ``rules.py`` does), and
    every module of the same packages they
    import (``from a.b import c``: ``a.b``, or ``a.b.c`` when that is a module),
    transitively.

    Derived, not listed: numba's own cache watches only the file a function is defined
    in, while a kernel freezes the constants and calls the code of everything it imports.
    A module only the Python side uses (words, pictures, the plain-Python reference) is
    not among them unless a kernel's module imports it.
    """
    roots = [
        "boardsim.core.engine",
        "boardsim.core.search.games",
        "boardsim.core.search.relabel",
        "boardsim.core.kernels",
    ]
    faces = [face] if isinstance(face, str) else list(face or ())
    roots += [name for name in faces if name in sys.modules]
    for fn in functions:
        py = getattr(fn, "py_func", fn)
        if getattr(py, "__module__", None):
            roots.append(py.__module__)
    packages = {name.split(".")[0] for name in roots}
    seen: dict[str, ModuleType] = {}
    todo = list(dict.fromkeys(roots))
    while todo:
        name = todo.pop()
        if name in seen or name.split(".")[0] not in packages:
            continue
        module = sys.modules.get(name) or importlib.import_module(name)
        seen[name] = module
        todo.extend(_imported_modules(module))
    return [seen[n] for n in sorted(seen)]


def _imported_modules(module: ModuleType) -> list[str]:
    """The modules ``module``'s source imports at any level (absolute names)."""
    path = getattr(module, "__file__", None)
    if not path or not path.endswith(".py"):
        return []
    package = (
        module.__name__ if path.endswith("__init__.py") else module.__name__.rpartition(".")[0]
    )
    out: list[str] = []
    for level, base, names in import_statements(Path(path).read_text(encoding="utf-8")):
        if base is None:
            out += names
            continue
        if level:
            parent = package.rsplit(".", level - 1)[0] if level > 1 else package
            base = f"{parent}.{base}" if base else parent
        subs = [f"{base}.{n}" for n in names if n != "*" and _is_module(f"{base}.{n}")]
        out += subs if len(subs) == len(names) else [base, *subs]
    return out


_TRIPLE_QUOTED = re.compile(r"(\"\"\"|\'\'\')(?:\\.|(?!\1).)*?\1", re.DOTALL)
_COMMENT = re.compile(r"#[^\n]*")
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
    r"|import[ \t]+([^\n]*))",
    re.MULTILINE,
)


def import_statements(source: str) -> list[tuple[int, str | None, list[str]]]:
    """Every import statement of a module's ``source``, at any depth: ``(level, module,
    names)`` for ``from ...module import names`` (``level`` leading dots) and
    ``(0, None, modules)`` for ``import modules``. Aliases are dropped.

    A text scan (string blocks and comments left out), not :func:`ast.parse`: it reads a
    game's sources in milliseconds at every start, where parsing and walking them took most
    of a warm start (``tests/core/test_cache.py`` checks it against ``ast`` on every
    module of the package)."""
    text = _TRIPLE_QUOTED.sub(lambda m: "\n" * m.group(0).count("\n"), source)
    text = _COMMENT.sub("", text)
    out: list[tuple[int, str | None, list[str]]] = []
    for m in _IMPORT.finditer(text):
        dots, base, names, modules = m.groups()
        words = _import_names(names if modules is None else modules)
        if modules is None:
            out.append((len(dots), base, words))
        else:
            out.append((0, None, words))
    return out


def _import_names(text: str) -> list[str]:
    """``a, b as c`` (in parentheses or not) -> ``["a", "b"]``."""
    words = []
    for item in " ".join(text.strip().strip("()").split()).split(","):
        item = item.split(" as ")[0].strip()
        if item:
            words.append(item)
    return words


def _is_module(name: str) -> bool:
    if name in sys.modules:
        return isinstance(sys.modules[name], ModuleType)
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _own_modules(
    modules: Iterable[ModuleType], functions: Iterable[Callable[..., Any]]
) -> list[ModuleType]:
    """Of ``modules``, those in the folders (or below) the kernels are defined in: the
    game's own, whose cached code a change of the game makes stale. The engine compiled
    for the game is keyed by its fingerprint instead (:class:`GameKernelsType`), and the
    shared core's own kernels never depend on a game."""
    folders = []
    for fn in functions:
        code = getattr(getattr(fn, "py_func", fn), "__code__", None)
        if code is not None:
            folders.append(Path(code.co_filename).resolve().parent)
    out = []
    for module in modules:
        path = getattr(module, "__file__", None)
        if path and any(Path(path).resolve().is_relative_to(f) for f in folders):
            out.append(module)
    return out


def _cache_dir_of(fn: Any) -> Path | None:
    """Where numba caches ``fn`` (a dispatcher with ``cache=True``), else None."""
    cache = getattr(fn, "_cache", None)
    path = getattr(cache, "cache_path", None)
    return Path(path) if path else None


def _cache_dirs(modules: Iterable[ModuleType]) -> list[Path]:
    """numba's cache folders of every compiled function defined in ``modules``
    (``__pycache__`` beside the source, or under ``NUMBA_CACHE_DIR``).

    Only the functions a module defines, not those it imports: a game's modules import the
    shared core's compiled helpers (``from boardsim.core.rng import ...``), whose folder
    holds every game's engine; counting it made a game seen for the first time (a plugin
    installed in a new folder) or edited drop every other game's compiled engine too."""
    dirs: set[Path] = set()
    for module in modules:
        path = getattr(module, "__file__", None)
        if path:
            dirs.add(Path(path).parent / "__pycache__")
        for value in list(vars(module).values()):
            if not isinstance(value, Dispatcher):
                continue
            if getattr(value.py_func, "__module__", None) != module.__name__:
                continue
            found = _cache_dir_of(value)
            if found is not None:
                dirs.add(found)
    return sorted(dirs)


class GameKernelsType(types.Type):
    """numba's type of a :class:`GameKernels`: keyed by the building module's name and the
    fingerprint of the game's sources and data, so that the engine compiled for one
    version of a game is never loaded from the cache for another."""

    def __init__(self, module: str, fingerprint: str) -> None:
        self.module = module
        self.fingerprint = fingerprint
        super().__init__(name=f"GameKernels({module}@{fingerprint})")

    def member(self, attr: str) -> Any:
        """The bundle's member ``attr`` (a kernel or a size), for numba's typing."""
        return bundle(self.module).members.get(attr)


@typeof_impl.register(GameKernels)
def _typeof_kernels(value: GameKernels, context: Any) -> GameKernelsType:
    return value._numba_type_


register_model(GameKernelsType)(models.OpaqueModel)


@unbox(GameKernelsType)
def _unbox_kernels(typ: GameKernelsType, obj: Any, c: Any) -> NativeValue:
    # nothing to carry: every attribute is resolved at compile time from the type
    return NativeValue(c.context.get_dummy_value())


@infer_getattr
class _KernelsAttributes(AttributeTemplate):
    key = GameKernelsType

    def generic_resolve(self, typ: GameKernelsType, attr: str) -> types.Type | None:
        value = typ.member(attr)
        if value is None:
            return None
        if isinstance(value, int):
            return types.IntegerLiteral(value)
        return types.Dispatcher(value)


@lower_getattr_generic(GameKernelsType)
def _lower_kernels_attribute(context: Any, builder: Any, typ: Any, value: Any, attr: str) -> Any:
    member = typ.member(attr)
    if isinstance(member, int):
        return context.get_constant(types.int64, member)
    return context.get_dummy_value()
