"""The value specs compiled from the type hints of a record's fields (``eiapbem.core.record``).

A field's hint becomes one ``Spec``: it checks a value at construction, writes the plain form and reads it back
strictly, naming the path of the first bad part.  The constraints a hint may carry with ``Annotated[...]``
(``Range``, ``OneOf``, ``Pattern``, ``SortedSet``, ``Size``) and the ``Plain`` marker are defined here too; the
record module's docstring says what each hint means.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
import re
import typing
from collections.abc import Mapping
from typing import Any

from eiapbem.core.errors import InvalidValue, quoted
from eiapbem.core.frozenmap import FrozenMap

#: A record class (``eiapbem.core.record.Record``, which imports this module): what a record spec reads and writes.
RecordClass = type[Any]

HINT = "the file is damaged or was written by another version of eiapbem; ask the host for a backup"


def join_path(path: str, part: str) -> str:
    return f"{path}.{part}" if path else part


# ----------------------------------------------------------------- constraints


@dataclasses.dataclass(frozen=True)
class Range:
    """An ``int`` between ``lo`` and ``hi`` inclusive (``None``: unbounded)."""

    lo: int | None = None
    hi: int | None = None


@dataclasses.dataclass(frozen=True)
class OneOf:
    """A ``str`` from a fixed list."""

    choices: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Pattern:
    """A ``str`` that fully matches a regular expression; ``what`` names it in messages."""

    regex: str
    what: str


@dataclasses.dataclass(frozen=True)
class SortedSet:
    """A ``tuple`` used as a set: stored sorted, without repeats."""


@dataclasses.dataclass(frozen=True)
class Size:
    """A ``str``, ``bytes`` or ``tuple`` of ``lo`` to ``hi`` characters, bytes or items."""

    lo: int = 0
    hi: int | None = None


#: The longest ``str`` a record holds where its field names no ``OneOf``, ``Pattern`` or ``Size``.
MAX_STR = 1 << 16
_LONG = Size(0, MAX_STR)


def name_of(cls: type) -> str:
    return getattr(cls, "WHAT", "") or cls.__name__


def _size_error(n: int, c: Size, unit: str) -> str:
    hi = "" if c.hi is None else str(c.hi)
    return f"holds {n} {unit}, outside {c.lo}..{hi}"


# ----------------------------------------------------------------------- specs


class Spec(abc.ABC):
    """How one declared type is checked, encoded and decoded."""

    @abc.abstractmethod
    def check(self, value: Any, path: str) -> Any:
        """Return ``value`` (possibly normalised) or raise ``InvalidValue``."""

    @abc.abstractmethod
    def to_obj(self, value: Any) -> Any:
        """The plain form of a checked value."""

    @abc.abstractmethod
    def from_obj(self, obj: Any, path: str) -> Any:
        """The value of a plain form, strictly checked."""


def type_name(v: Any) -> str:
    return type(v).__name__


_REGEXES: dict[str, re.Pattern[str]] = {}


def compiled(regex: str) -> re.Pattern[str]:
    """``re.compile`` remembered by the pattern's text (``re``'s own cache is looked up with flags each call)."""
    c = _REGEXES.get(regex)
    if c is None:
        c = _REGEXES[regex] = re.compile(regex)
    return c


class ScalarSpec(Spec):
    def __init__(self, typ: type, constraints: tuple[Any, ...] = ()) -> None:
        self.typ = typ
        if typ is str and not any(type(c) in (OneOf, Pattern, Size) for c in constraints):
            constraints = constraints + (_LONG,)  # a string from outside is never unbounded
        self.constraints = constraints

    def _base_ok(self, value: Any) -> bool:
        # Exact types only: a bool is not an int, an IntEnum or str subclass
        # is not stored, so equal values always have equal encodings.
        return type(value) is self.typ

    def check(self, value: Any, path: str) -> Any:
        if type(value) is not self.typ:  # (the exact type is the usual case: nothing to convert)
            if self.typ is str and isinstance(value, enum.Enum) and isinstance(value, str):
                value = value.value  # a StrEnum member where a plain id is declared
            if not self._base_ok(value):
                raise InvalidValue(f"expected {self.typ.__name__}, got {type_name(value)} {quoted(value)}", path=path)
        for c in self.constraints:
            if type(c) is Range:
                if (c.lo is not None and value < c.lo) or (c.hi is not None and value > c.hi):
                    lo = "" if c.lo is None else str(c.lo)
                    hi = "" if c.hi is None else str(c.hi)
                    raise InvalidValue(f"{quoted(value)} is outside the allowed range {lo}..{hi}", path=path)
            elif type(c) is Size:
                if len(value) < c.lo or (c.hi is not None and len(value) > c.hi):
                    unit = "characters" if self.typ is str else "bytes"
                    raise InvalidValue(f"{quoted(value)} {_size_error(len(value), c, unit)}", path=path)
            elif type(c) is OneOf:
                if value not in c.choices:
                    raise InvalidValue(f"{quoted(value)} is not one of {', '.join(c.choices)}", path=path)
            elif type(c) is Pattern:
                if not compiled(c.regex).fullmatch(value):
                    raise InvalidValue(f"{quoted(value)} is not a valid {c.what}", path=path)
        return value

    def to_obj(self, value: Any) -> Any:
        return value

    def from_obj(self, obj: Any, path: str) -> Any:
        return self.check(obj, path)


class EnumSpec(Spec):
    def __init__(self, typ: type[enum.Enum]) -> None:
        self.typ = typ

    def check(self, value: Any, path: str) -> Any:
        if isinstance(value, self.typ):
            return value
        if isinstance(value, str):
            try:
                return self.typ(value)
            except ValueError:
                pass
        choices = ", ".join(m.value for m in self.typ)
        raise InvalidValue(f"{quoted(value)} is not one of {choices}", path=path)

    def to_obj(self, value: Any) -> Any:
        return str(value.value)

    def from_obj(self, obj: Any, path: str) -> Any:
        if not isinstance(obj, str):
            raise InvalidValue(f"expected str, got {type_name(obj)} {quoted(obj)}", path=path)
        return self.check(obj, path)


class OptionalSpec(Spec):
    def __init__(self, inner: Spec) -> None:
        self.inner = inner

    def check(self, value: Any, path: str) -> Any:
        return None if value is None else self.inner.check(value, path)

    def to_obj(self, value: Any) -> Any:
        return None if value is None else self.inner.to_obj(value)

    def from_obj(self, obj: Any, path: str) -> Any:
        return None if obj is None else self.inner.from_obj(obj, path)


class ScalarUnionSpec(Spec):
    """A union of plain scalar types (e.g. the parameters of a log entry)."""

    def __init__(self, specs: tuple[Spec, ...]) -> None:
        self.specs = specs

    def _pick(self, value: Any, path: str) -> Spec:
        for s in self.specs:
            if isinstance(s, ScalarSpec) and s._base_ok(value):
                return s
        names = " or ".join(s.typ.__name__ for s in self.specs if isinstance(s, ScalarSpec))
        raise InvalidValue(f"expected {names}, got {type_name(value)} {quoted(value)}", path=path)

    def check(self, value: Any, path: str) -> Any:
        return self._pick(value, path).check(value, path)

    def to_obj(self, value: Any) -> Any:
        return value

    def from_obj(self, obj: Any, path: str) -> Any:
        return self.check(obj, path)


class TupleSpec(Spec):
    def __init__(self, inner: Spec, as_set: bool, size: Size | None = None) -> None:
        self.inner = inner
        self.as_set = as_set
        self.size = size

    def _count(self, value: Any, path: str) -> None:
        c = self.size
        if c is not None and (len(value) < c.lo or (c.hi is not None and len(value) > c.hi)):
            raise InvalidValue(f"the list {_size_error(len(value), c, 'items')}", path=path)

    def check(self, value: Any, path: str) -> Any:
        if not isinstance(value, (tuple, list)) or (self.as_set and isinstance(value, (str, bytes))):
            raise InvalidValue(f"expected a sequence, got {type_name(value)}", path=path)
        self._count(value, path)
        items = tuple(self.inner.check(v, f"{path}[{i}]") for i, v in enumerate(value))
        if self.as_set:
            items = tuple(sorted(set(items), key=_set_key))
        return items

    def to_obj(self, value: Any) -> Any:
        return [self.inner.to_obj(v) for v in value]

    def from_obj(self, obj: Any, path: str) -> Any:
        if not isinstance(obj, list):
            raise InvalidValue(f"expected a list, got {type_name(obj)}", path=path)
        self._count(obj, path)
        items = tuple(self.inner.from_obj(v, f"{path}[{i}]") for i, v in enumerate(obj))
        if self.as_set and list(items) != sorted(set(items), key=_set_key):
            raise InvalidValue("the set is not sorted or holds a repeat", path=path)
        return items


def key_text(k: Any) -> str:
    """A map key as a part of a path: the key itself, or a short quote of a long or odd one."""
    return k if type(k) is str and len(k) <= 40 and k.isprintable() else quoted(k)


def _set_key(v: Any) -> Any:
    if isinstance(v, str):
        return (0, v.encode("utf-8"))
    if hasattr(type(v), "to_obj"):  # a record
        return (1, repr(v.to_obj()))
    return (2, v)


class MapSpec(Spec):
    def __init__(self, key: Spec, value: Spec) -> None:
        self.key = key
        self.value = value

    def check(self, value: Any, path: str) -> Any:
        if not isinstance(value, Mapping):
            raise InvalidValue(f"expected a map, got {type_name(value)}", path=path)
        if isinstance(value, FrozenMap) and value._ok is self:
            # Checked whole by this spec before and changed at ``_dirty`` since: check those entries.
            if all(self._entry_unchanged(value, k, path) for k in value._dirty if k in value._d):
                value._dirty = ()
                return value
        out = []
        for k, v in value.items():
            kk = self.key.check(k, join_path(path, str(k)))
            out.append((str(kk.value) if isinstance(kk, enum.Enum) else kk, self.value.check(v, join_path(path, str(k)))))
        if isinstance(value, FrozenMap) and all(
            type(k0) is str and k0 == k1 and v0 is v1 for (k0, v0), (k1, v1) in zip(value.items(), out)
        ):
            value._ok, value._dirty = self, ()
            return value  # already normal: keep the object (and its cached hash)
        m: FrozenMap[str, Any] = FrozenMap(out)
        m._ok = self
        return m

    def _entry_unchanged(self, m: FrozenMap[str, Any], k: Any, path: str) -> bool:
        """Check one entry; True if it is already in normal form (so the map can be kept as is)."""
        if type(k) is not str:
            return False
        kk = self.key.check(k, join_path(path, k))
        v = m._d[k]
        return (kk.value if isinstance(kk, enum.Enum) else kk) == k and self.value.check(v, join_path(path, k)) is v

    def to_obj(self, value: Any) -> Any:
        return {k: self.value.to_obj(v) for k, v in value.items()}

    def from_obj(self, obj: Any, path: str) -> Any:
        if not isinstance(obj, dict):
            raise InvalidValue(f"expected a map, got {type_name(obj)}", path=path)
        out = []
        for k, v in obj.items():
            p = join_path(path, key_text(k))
            self.key.from_obj(k, p)
            out.append((k, self.value.from_obj(v, p)))
        return FrozenMap(out)


class RecordSpec(Spec):
    def __init__(self, cls: RecordClass) -> None:
        self.cls = cls

    def check(self, value: Any, path: str) -> Any:
        if type(value) is not self.cls:
            raise InvalidValue(f"expected {name_of(self.cls)}, got {type_name(value)}", path=path)
        return value

    def to_obj(self, value: Any) -> Any:
        return value.to_obj()

    def from_obj(self, obj: Any, path: str) -> Any:
        return self.cls._from_obj(obj, path)


class KindUnionSpec(Spec):
    """A union of records told apart by each one's ``KIND`` (stored under ``kind``, or under their ``TAG``)."""

    def __init__(self, classes: tuple[RecordClass, ...]) -> None:
        self.by_kind = {c.KIND: c for c in classes}
        tags = {c.TAG for c in classes}
        if len(tags) != 1:
            raise TypeError(f"the records of one union store their kind under one key, not {sorted(tags)}")
        self.tag = tags.pop()

    def check(self, value: Any, path: str) -> Any:
        if type(value) not in self.by_kind.values():
            names = ", ".join(c.__name__ for c in self.by_kind.values())
            raise InvalidValue(f"expected one of {names}, got {type_name(value)}", path=path)
        return value

    def to_obj(self, value: Any) -> Any:
        obj = value.to_obj()
        obj[self.tag] = value.KIND
        return obj

    def from_obj(self, obj: Any, path: str) -> Any:
        if not isinstance(obj, dict):
            raise InvalidValue(f"expected a map, got {type_name(obj)}", path=path)
        kind = obj.get(self.tag)
        if type(kind) is not str or kind not in self.by_kind:
            raise InvalidValue(f"unknown {self.tag} {quoted(kind)} (expected {', '.join(sorted(self.by_kind))})",
                               path=join_path(path, self.tag))
        rest = {k: v for k, v in obj.items() if k != self.tag}
        return self.by_kind[kind]._from_obj(rest, path)


class _Plain:
    """Marker type of a field holding a plain canonical value (see the module docstring)."""

    DEPTH = 32


if typing.TYPE_CHECKING:
    #: To the type checker a plain value is any value: its form is checked when the record is made or decoded.
    Plain: typing.TypeAlias = Any
else:
    Plain = _Plain


_SCALARS = frozenset({type(None), bool, int, str, bytes})


def _plain_ok(value: Any, depth: int) -> bool:
    """``PlainSpec.check`` without paths (issue 18: a save's journal is checked at every open).

    A scalar inside a list or map is taken where it stands, without a call (most of a log line's or an
    action's values are scalars)."""
    if depth > _Plain.DEPTH:
        return False
    t = type(value)
    if t in _SCALARS:
        return True
    leaf = _SCALARS if depth < _Plain.DEPTH else frozenset()  # one level deeper is still within the limit
    if t is list or t is tuple:
        for v in value:
            if type(v) not in leaf and not _plain_ok(v, depth + 1):
                return False
        return True
    if t is dict:
        for k, v in value.items():
            if type(k) is not str or (type(v) not in leaf and not _plain_ok(v, depth + 1)):
                return False
        return True
    return False


class PlainSpec(Spec):
    def check(self, value: Any, path: str, depth: int = 0) -> Any:
        if _plain_ok(value, depth):
            return value  # the same answer as below; the walk with paths only runs to name what is wrong
        if depth > _Plain.DEPTH:
            raise InvalidValue(f"nested deeper than {_Plain.DEPTH} levels", path=path)
        if value is None or type(value) in (bool, int, str, bytes):
            return value
        if type(value) in (list, tuple):
            for i, v in enumerate(value):
                self.check(v, join_path(path, str(i)), depth + 1)
            return value
        if type(value) is dict:
            for k, v in value.items():
                if type(k) is not str:
                    raise InvalidValue(f"a map key must be a string, got {type_name(k)}", path=path)
                self.check(v, join_path(path, key_text(k)), depth + 1)
            return value
        raise InvalidValue(f"expected a plain value, got {type_name(value)}", path=path)

    def to_obj(self, value: Any) -> Any:
        return value

    def from_obj(self, obj: Any, path: str) -> Any:
        return self.check(obj, path)
