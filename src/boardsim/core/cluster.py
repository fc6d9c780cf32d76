"""Ray for the layers that run on a cluster (sweeps and tuning in ``research``, RLlib in
``training``): start it, or join a cluster, with one clear error when there is none."""

from __future__ import annotations

from typing import Any

from boardsim.core.errors import OptionError


def _require_ray() -> Any:
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the install
        raise OptionError("--backend ray needs Ray: pip install 'boardsim[research]'") from None
    return ray


def init_ray(address: str | None, log_to_driver: bool = False, **local: Any) -> bool:
    """Start Ray for this process unless it is running already; whether it was started here
    (and so is to be shut down by the caller).

    ``address`` (``"auto"``, ``"ray://host:10001"``, ``"host:6379"``) connects to an existing
    cluster, whose settings are its own; ``None`` starts a local Ray with ``local``'s
    settings (e.g. ``num_cpus``). ``log_to_driver``: the tasks' output printed here. No
    cluster at ``address`` raises :class:`OptionError` saying how to start one
    (``ray start --head``) or to run without ``--address``, not Ray's ConnectionError.
    """
    ray = _require_ray()
    if ray.is_initialized():
        return False
    if address is None:  # a new local Ray, without the dashboard's extra processes
        ray.init(include_dashboard=False, log_to_driver=log_to_driver, **local)
        return True
    try:
        ray.init(address=address, log_to_driver=log_to_driver)
    except ConnectionError as exc:
        raise OptionError(
            f"no Ray cluster at --address {address} ({_first_sentence(exc)}): start one with "
            "`ray start --head`, or drop --address to run on a local Ray"
        ) from None
    return True


def _first_sentence(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.split(". ")[0].splitlines()[0].rstrip(".") if text else type(exc).__name__
