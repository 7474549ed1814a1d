"""``FrozenMap``: the immutable, canonically ordered mapping of the game state model (``core.record``).

Split from ``core/record.py`` (which re-exports it) to keep each module one piece: the map and the memo of
what changed since its base, which the record checks and the state's invariant checks read.
"""

from __future__ import annotations

import bisect
import typing
from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

from eiapbem.core.errors import InvalidValue

K = TypeVar("K")
V = TypeVar("V")


#: At most this many keys changed since a map's base (``FrozenMap._base``) before a map counts as new.
_CHANGED_MAX = 64


def _key_bytes(k: str) -> bytes:
    return k.encode("utf-8")


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """An immutable, hashable mapping with ``str`` keys in canonical order.

    Iteration follows the UTF-8 byte order of the keys, the same order the
    canonical encoding uses, so nothing depends on insertion or hash order.
    Updates return a new map.
    """

    # ``_ok``: the ``MapSpec`` that last checked every entry (None: not checked);
    # ``_dirty``: keys set since then.  An update of a checked map carries both,
    # so the next check looks at the changed entries only (docs/decisions.md
    # "Integration"); a map built from anything else (decoding) is checked whole.
    #
    # ``_base``, ``_changed``: the map this one was derived from by ``set``/``remove`` (the first of a run of
    # updates, at most ``_CHANGED_MAX`` keys) and the keys set or removed since; None/() for a map built
    # whole.  Invariant checks that passed on the base look at those keys only (``rules.model.state``).
    # ``_passed``: an invariant check passed on this very map (set by ``rules.model.state``); a map derived
    # from it starts a new run there, so a chain of updates each checked costs its own change, not the
    # run's (a memo hint only: the checks still ask whether the base passed).
    __slots__ = ("_d", "_h", "_ok", "_dirty", "_base", "_changed", "_passed")

    def __init__(self, items: Mapping[K, V] | typing.Iterable[tuple[K, V]] = ()) -> None:
        pairs = list(items.items()) if isinstance(items, Mapping) else list(items)
        d: dict[Any, V] = {}
        for k, v in pairs:
            if not isinstance(k, str):
                raise InvalidValue(f"map key {k!r} is not a string")
            if k in d:
                raise InvalidValue(f"map key {k!r} appears twice")
            d[k] = v
        self._d = {k: d[k] for k in sorted(d, key=_key_bytes)}
        self._h: int | None = None
        self._ok: Any = None
        self._dirty: tuple[K, ...] = ()
        self._base: FrozenMap[K, V] | None = None
        self._changed: tuple[K, ...] = ()
        self._passed = False

    @classmethod
    def _derived(cls, parent: FrozenMap[K, V], d: dict[K, V], dirty: tuple[K, ...], changed: tuple[K, ...]) -> FrozenMap[K, V]:
        """A map of the already ordered dict ``d`` made from ``parent`` by setting the keys ``dirty``
        (entries to check again) and setting or removing the keys ``changed``."""
        m = cls.__new__(cls)
        m._d = d
        m._h = None
        m._ok = parent._ok
        m._dirty = parent._dirty + dirty if parent._ok is not None else ()
        m._passed = False
        if parent._base is None or parent._passed:
            m._base, m._changed = parent, changed
            # The map before the parent stays reachable through ``_base`` (``rules.control.units_at`` derives
            # its index from one a step or two back); the one before that is let go, so a long game keeps
            # three versions of a map alive, not all of them.
            grand = parent._base
            if grand is not None and grand._base is not None:
                grand._base, grand._changed = None, ()
        elif len(parent._changed) < _CHANGED_MAX:
            m._base, m._changed = parent._base, parent._changed + changed
        else:
            m._base, m._changed = None, ()  # a long run of updates: the next check looks at the whole map
        return m

    def __getitem__(self, key: K) -> V:
        return self._d[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    # The dict's own read-only views and lookups: the ``Mapping`` defaults go through ``__getitem__`` once
    # per entry (a third of an audit's time was ``corps_at`` iterating ``state.units.values()``: issue 20).
    def keys(self) -> typing.KeysView[K]:
        return self._d.keys()

    def values(self) -> typing.ValuesView[V]:
        return self._d.values()

    def items(self) -> typing.ItemsView[K, V]:
        return self._d.items()

    def get(self, key: K, default: Any = None) -> Any:
        return self._d.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._d == other._d
        if isinstance(other, Mapping):
            return self._d == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(tuple(self._d.items()))
        return self._h

    def __repr__(self) -> str:
        return f"FrozenMap({self._d!r})"

    def set(self, key: K, value: V) -> FrozenMap[K, V]:
        """A copy with ``key`` bound to ``value``."""
        if key in self._d and isinstance(key, str):
            d = dict(self._d)
            d[key] = value  # same key: the order stays canonical
            return FrozenMap._derived(self, d, (key,), (key,))
        if not isinstance(key, str):
            raise InvalidValue(f"map key {key!r} is not a string")
        key.encode("utf-8")  # as the canonical order would (a key that cannot be UTF-8 is refused alike)
        # Insert in place: str order is code point order, which is the UTF-8 byte order of the keys.
        items = list(self._d.items())
        items.insert(bisect.bisect_left(list(self._d), str(key)), (key, value))
        return FrozenMap._derived(self, dict(items), (key,), (key,))

    def remove(self, key: K) -> FrozenMap[K, V]:
        """A copy without ``key`` (which must be present)."""
        if key not in self._d:
            raise KeyError(key)
        d = dict(self._d)
        del d[key]  # the others keep their order
        return FrozenMap._derived(self, d, (), (key,))

    def discard(self, key: K) -> FrozenMap[K, V]:
        """A copy without ``key`` (absent is fine)."""
        return self.remove(key) if key in self._d else self
