"""The typed value machinery under the game state model and the file bodies.

(Moved from ``eiapbem/rules/model/base.py`` to the bottom layer so that the
file layer decodes its bodies with the same validator as the state, issue 15
item 2; ``eiapbem.rules.model.base`` re-exports it.)

Every value of the model is a frozen dataclass deriving from ``Record``.  Its
fields are declared with ordinary type hints, and those hints are the schema:

- ``int``, ``str``, ``bool``, ``bytes`` (strict: a ``bool`` is not an ``int``,
  a float is never anything), optionally narrowed with ``Annotated[...]`` and a
  constraint from this module (``Range``, ``OneOf``, ``Pattern``, ``Size``); a
  ``str`` with none of ``OneOf``, ``Pattern`` or ``Size`` holds at most
  ``MAX_STR`` characters;
- a ``StrEnum`` (stored as its string value; a plain string is converted);
- another ``Record``;
- ``X | None``;
- ``tuple[X, ...]`` (an ordered sequence: order is meaning, never identity),
  optionally with a ``Size`` on its number of items;
- ``Annotated[tuple[X, ...], SortedSet()]`` (a set of ids: kept sorted and
  without repeats, so one set has one form);
- ``FrozenMap[K, V]`` (a mapping with string keys, iterated in canonical key
  order; the keys are stable ids such as ``FR`` or ``corps:FR:III``);
- a union of records that each name a ``KIND`` (stored with a ``kind`` key, or
  the key the classes name as ``TAG``);
- ``Plain`` (a plain canonical value: None, bool, int, str, bytes, lists and
  maps with string keys, no deeper than ``Plain.DEPTH``; for what a higher
  layer decodes strictly itself, such as an action object).

Reading what an older release wrote (``reading_older``, issue 29 item 4): a key the record has gained since
is taken at the field's declared default; everything else is as strict.

A field declared with ``absent()`` is ``None`` when its key is left out of the
plain form, and its key is left out when it is ``None`` (a ``null`` written out
is refused: one value, one form).  A field declared with ``transient()`` is not
part of the record's value: it is
neither encoded, decoded, compared nor hashed (the state's game log, kept
beside the state by the client layer, docs/decisions.md "Turn pipeline").

From the hints come, for every record: a type check at construction (so a
value that exists is valid, and ``==``/``hash`` of the dataclass agree with the
canonical encoding), ``to_obj`` (plain ints/str/bytes/bool/None/lists/maps),
and a strict ``from_obj`` that names the path of the first bad field
(``powers.FR.treasury``) in a ``BadEncoding``.  A record may add invariants
across its fields in ``_check``; they raise ``InvalidValue``.  A message quotes
at most a short prefix of a bad value (``errors.quoted``), and names a record by
its ``WHAT`` when it has one (``a turn file's header``), else by its class.
"""

from __future__ import annotations

import abc
import contextlib
import contextvars
import dataclasses
import enum
import re
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from eiapbem.core.errors import BadEncoding, quoted
from eiapbem.core.errors import InvalidValue as InvalidValue  # defined there, re-exported: the model imports it here
from eiapbem.core.frozenmap import FrozenMap as FrozenMap  # the same: defined there, imported from here

_HINT = "the file is damaged or was written by another version of eiapbem; ask the host for a backup"


def _join(path: str, part: str) -> str:
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


def _what(cls: type) -> str:
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


def _tname(v: Any) -> str:
    return type(v).__name__


_REGEXES: dict[str, re.Pattern[str]] = {}


def _compiled(regex: str) -> re.Pattern[str]:
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
                raise InvalidValue(f"expected {self.typ.__name__}, got {_tname(value)} {quoted(value)}", path=path)
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
                if not _compiled(c.regex).fullmatch(value):
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
            raise InvalidValue(f"expected str, got {_tname(obj)} {quoted(obj)}", path=path)
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
        raise InvalidValue(f"expected {names}, got {_tname(value)} {quoted(value)}", path=path)

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
            raise InvalidValue(f"expected a sequence, got {_tname(value)}", path=path)
        self._count(value, path)
        items = tuple(self.inner.check(v, f"{path}[{i}]") for i, v in enumerate(value))
        if self.as_set:
            items = tuple(sorted(set(items), key=_set_key))
        return items

    def to_obj(self, value: Any) -> Any:
        return [self.inner.to_obj(v) for v in value]

    def from_obj(self, obj: Any, path: str) -> Any:
        if not isinstance(obj, list):
            raise InvalidValue(f"expected a list, got {_tname(obj)}", path=path)
        self._count(obj, path)
        items = tuple(self.inner.from_obj(v, f"{path}[{i}]") for i, v in enumerate(obj))
        if self.as_set and list(items) != sorted(set(items), key=_set_key):
            raise InvalidValue("the set is not sorted or holds a repeat", path=path)
        return items


def _key_text(k: Any) -> str:
    """A map key as a part of a path: the key itself, or a short quote of a long or odd one."""
    return k if type(k) is str and len(k) <= 40 and k.isprintable() else quoted(k)


def _set_key(v: Any) -> Any:
    if isinstance(v, str):
        return (0, v.encode("utf-8"))
    if isinstance(v, Record):
        return (1, repr(v.to_obj()))
    return (2, v)


class MapSpec(Spec):
    def __init__(self, key: Spec, value: Spec) -> None:
        self.key = key
        self.value = value

    def check(self, value: Any, path: str) -> Any:
        if not isinstance(value, Mapping):
            raise InvalidValue(f"expected a map, got {_tname(value)}", path=path)
        if isinstance(value, FrozenMap) and value._ok is self:
            # Checked whole by this spec before and changed at ``_dirty`` since: check those entries.
            if all(self._entry_unchanged(value, k, path) for k in value._dirty if k in value._d):
                value._dirty = ()
                return value
        out = []
        for k, v in value.items():
            kk = self.key.check(k, _join(path, str(k)))
            out.append((str(kk.value) if isinstance(kk, enum.Enum) else kk, self.value.check(v, _join(path, str(k)))))
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
        kk = self.key.check(k, _join(path, k))
        v = m._d[k]
        return (kk.value if isinstance(kk, enum.Enum) else kk) == k and self.value.check(v, _join(path, k)) is v

    def to_obj(self, value: Any) -> Any:
        return {k: self.value.to_obj(v) for k, v in value.items()}

    def from_obj(self, obj: Any, path: str) -> Any:
        if not isinstance(obj, dict):
            raise InvalidValue(f"expected a map, got {_tname(obj)}", path=path)
        out = []
        for k, v in obj.items():
            p = _join(path, _key_text(k))
            self.key.from_obj(k, p)
            out.append((k, self.value.from_obj(v, p)))
        return FrozenMap(out)


class RecordSpec(Spec):
    def __init__(self, cls: type[Record]) -> None:
        self.cls = cls

    def check(self, value: Any, path: str) -> Any:
        if type(value) is not self.cls:
            raise InvalidValue(f"expected {_what(self.cls)}, got {_tname(value)}", path=path)
        return value

    def to_obj(self, value: Any) -> Any:
        return value.to_obj()

    def from_obj(self, obj: Any, path: str) -> Any:
        return self.cls._from_obj(obj, path)


class KindUnionSpec(Spec):
    """A union of records told apart by each one's ``KIND`` (stored under ``kind``, or under their ``TAG``)."""

    def __init__(self, classes: tuple[type[Record], ...]) -> None:
        self.by_kind = {c.KIND: c for c in classes}
        tags = {c.TAG for c in classes}
        if len(tags) != 1:
            raise TypeError(f"the records of one union store their kind under one key, not {sorted(tags)}")
        self.tag = tags.pop()

    def check(self, value: Any, path: str) -> Any:
        if type(value) not in self.by_kind.values():
            names = ", ".join(c.__name__ for c in self.by_kind.values())
            raise InvalidValue(f"expected one of {names}, got {_tname(value)}", path=path)
        return value

    def to_obj(self, value: Any) -> Any:
        obj = value.to_obj()
        obj[self.tag] = value.KIND
        return obj

    def from_obj(self, obj: Any, path: str) -> Any:
        if not isinstance(obj, dict):
            raise InvalidValue(f"expected a map, got {_tname(obj)}", path=path)
        kind = obj.get(self.tag)
        if type(kind) is not str or kind not in self.by_kind:
            raise InvalidValue(f"unknown {self.tag} {quoted(kind)} (expected {', '.join(sorted(self.by_kind))})",
                               path=_join(path, self.tag))
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
                self.check(v, _join(path, str(i)), depth + 1)
            return value
        if type(value) is dict:
            for k, v in value.items():
                if type(k) is not str:
                    raise InvalidValue(f"a map key must be a string, got {_tname(k)}", path=path)
                self.check(v, _join(path, _key_text(k)), depth + 1)
            return value
        raise InvalidValue(f"expected a plain value, got {_tname(value)}", path=path)

    def to_obj(self, value: Any) -> Any:
        return value

    def from_obj(self, obj: Any, path: str) -> Any:
        return self.check(obj, path)


TRANSIENT = "eiapbem.transient"
#: Set while reading a value an older release wrote (``reading_older``).
_OLDER: contextvars.ContextVar[bool] = contextvars.ContextVar("eiapbem_reading_older", default=False)


@contextlib.contextmanager
def reading_older() -> typing.Iterator[None]:
    """Within: a key a record gained after the release that wrote the value is taken at its default.

    For the game an older release saved, which the newer release reads once when the game moves to it
    (``client/upgrade.py``): a field added since has a default that says what the older rules did."""
    token = _OLDER.set(True)
    try:
        yield
    finally:
        _OLDER.reset(token)


def _default_of(cls: type, name: str) -> Any:
    """The declared default of the field ``name`` of ``cls``, or ``dataclasses.MISSING``."""
    for f in dataclasses.fields(cls):
        if f.name == name:
            if f.default is not dataclasses.MISSING:
                return f.default
            if f.default_factory is not dataclasses.MISSING:
                return f.default_factory()
    return dataclasses.MISSING


ABSENT = "eiapbem.absent"


def transient(default: Any = ()) -> Any:
    """A dataclass field outside the record's value: not encoded, decoded, compared or hashed."""
    return dataclasses.field(default=default, compare=False, metadata={TRANSIENT: True})


def absent() -> Any:
    """A field that is ``None`` when its key is left out of the plain form, and left out when ``None``."""
    return dataclasses.field(default=None, metadata={ABSENT: True})


_ABSENTS: dict[type, frozenset[str]] = {}


def absent_fields(cls: type) -> frozenset[str]:
    """The fields of ``cls`` declared with ``absent()``."""
    out = _ABSENTS.get(cls)
    if out is None:
        out = _ABSENTS[cls] = frozenset(f.name for f in dataclasses.fields(cls) if f.metadata.get(ABSENT))
    return out


def spec_for(hint: Any) -> Spec:
    """Compile one type hint of a record field into a ``Spec``."""
    constraints: tuple[Any, ...] = ()
    if typing.get_origin(hint) is typing.Annotated:
        hint, *extra = typing.get_args(hint)
        constraints = tuple(extra)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        rest = tuple(a for a in args if a is not type(None))
        if len(rest) < len(args):
            inner = spec_for(rest[0]) if len(rest) == 1 else spec_for(typing.Union[rest])
            return OptionalSpec(inner)
        if all(isinstance(a, type) and issubclass(a, Record) for a in rest):
            return KindUnionSpec(rest)
        return ScalarUnionSpec(tuple(spec_for(a) for a in rest))
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) != 2 or args[1] is not Ellipsis:
            raise TypeError(f"only tuple[X, ...] is supported, not {hint}")
        size = next((c for c in constraints if isinstance(c, Size)), None)
        return TupleSpec(spec_for(args[0]), any(isinstance(c, SortedSet) for c in constraints), size)
    if origin is FrozenMap:
        k, v = typing.get_args(hint)
        return MapSpec(spec_for(k), spec_for(v))
    if hint is Plain:
        return PlainSpec()
    if isinstance(hint, type):
        if issubclass(hint, enum.Enum):
            return EnumSpec(hint)
        if issubclass(hint, Record):
            return RecordSpec(hint)
        if hint in (int, str, bool, bytes):
            return ScalarSpec(hint, constraints)
    raise TypeError(f"the model cannot hold a field of type {hint!r}")


_SPECS: dict[type, dict[str, Spec]] = {}


def field_specs(cls: type[Record]) -> dict[str, Spec]:
    """The compiled specs of a record class's fields, in declaration order."""
    specs = _SPECS.get(cls)
    if specs is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        specs = {f.name: spec_for(hints[f.name]) for f in dataclasses.fields(typing.cast(Any, cls)) if not f.metadata.get(TRANSIENT)}
        _SPECS[cls] = specs
    return specs


#: Per record class, the function ``__post_init__`` runs (``_validator``).
_VALIDATORS: dict[type, Any] = {}


def _fast_ok(spec: Spec, v: str, consts: dict[str, Any]) -> str | None:
    """A Python expression true only where ``spec.check`` of the value named ``v`` returns it unchanged.

    None where there is no such expression (the spec is called).  A false expression proves nothing:
    the spec is called then, and it raises its own error or normalises."""
    if isinstance(spec, OptionalSpec):
        inner = _fast_ok(spec.inner, v, consts)
        return None if inner is None else f"({v} is None or {inner})"
    name = f"_c{len(consts)}"
    if isinstance(spec, ScalarSpec):
        consts[name] = spec.typ
        parts = [f"type({v}) is {name}"]
        for i, c in enumerate(spec.constraints):
            cname = f"{name}_{i}"
            if type(c) is Range:
                if c.lo is not None:
                    consts[cname + "lo"] = c.lo
                    parts.append(f"{cname}lo <= {v}")
                if c.hi is not None:
                    consts[cname + "hi"] = c.hi
                    parts.append(f"{v} <= {cname}hi")
            elif type(c) is OneOf:
                consts[cname] = frozenset(c.choices)
                parts.append(f"{v} in {cname}")
            elif type(c) is Pattern:
                consts[cname] = _compiled(c.regex).fullmatch
                parts.append(f"{cname}({v}) is not None")
            elif type(c) is Size:
                consts[cname + "lo"] = c.lo
                parts.append(f"{cname}lo <= len({v})")
                if c.hi is not None:
                    consts[cname + "hi"] = c.hi
                    parts.append(f"len({v}) <= {cname}hi")
            else:
                return None  # a constraint the scalar check does not test either: leave it to the spec
        return "(" + " and ".join(parts) + ")"
    if isinstance(spec, EnumSpec | RecordSpec):
        consts[name] = spec.typ if isinstance(spec, EnumSpec) else spec.cls
        return f"type({v}) is {name}"  # (an enum member's type is its enum: enums with members are final)
    return None


def _validator(cls: type) -> Any:
    """``__post_init__`` for ``cls``: ``_checked_fields`` written out per field, then ``_check``.

    A field whose value passes a plain test (its exact type, its range, pattern or choices:
    ``_fast_ok``) is left as it is, which is what its spec's ``check`` does with such a value; any
    other value goes to the spec, which raises its error or normalises, in field order as before
    (issue 18: a replay and a decode make thousands of records).  Field names are identifiers, so the
    text is safe to compile."""
    specs = field_specs(cls)
    consts: dict[str, Any] = {"_set": object.__setattr__}
    lines = []
    for i, (name, spec) in enumerate(specs.items()):
        assert name.isidentifier()
        consts[f"_s{i}"] = spec
        call = [f"    f = _s{i}.check(v, {name!r})", "    if f is not v:", f"        _set(self, {name!r}, f)"]
        ok = _fast_ok(spec, "v", consts)
        lines.append(f"    v = self.{name}")
        if ok is None:
            lines += call
        else:
            lines.append(f"    if not {ok}:")
            lines += ["    " + line for line in call]
    lines.append("    self._check()")
    ns: dict[str, Any] = dict(consts)
    exec("def check(self):\n" + "\n".join(lines) + "\n", ns)  # noqa: S102 (generated from field names)
    return ns["check"]


#: Per record class, ``_from_obj`` of a map holding exactly its fields (``_builder``).
_BUILDERS: dict[type, Any] = {}


def _builder(cls: type) -> Any:
    """``_from_obj`` of a plain map holding exactly the fields of ``cls``, written out per field.

    Each field is read by its spec's ``from_obj`` with its path, in field order, as the plain loop does;
    a scalar that passes its plain test (``_fast_ok``) is taken as it is, which is what its spec's
    ``from_obj`` returns for it, and an enum's value is looked up in a table of its members (what
    ``EnumSpec.from_obj`` does with a string); only a field read by its spec needs its path written
    (issue 18: a decoded state is ~3,000 records).  Field names are identifiers, so the text is safe."""
    specs = field_specs(cls)
    consts: dict[str, Any] = {"_cls": cls, "_join": _join, "InvalidValue": InvalidValue}
    lines, args = [], []
    for i, (name, spec) in enumerate(specs.items()):
        assert name.isidentifier()
        consts[f"_s{i}"] = spec
        read = f"_s{i}.from_obj(v, _join(path, {name!r}))"
        lines.append(f"    v = obj[{name!r}]")
        scalar = isinstance(spec, ScalarSpec) or (isinstance(spec, OptionalSpec) and isinstance(spec.inner, ScalarSpec))
        ok = _fast_ok(spec, "v", consts) if scalar else None  # (a record or enum is never plain)
        if isinstance(spec, EnumSpec):
            consts[f"_m{i}"] = {m.value: m for m in spec.typ}
            lines.append(f"    f{i} = _m{i}.get(v) if type(v) is str else None")
            lines.append(f"    if f{i} is None:")
            lines.append(f"        f{i} = {read}")
        elif ok is not None:
            lines.append(f"    f{i} = v if {ok} else {read}")
        else:
            lines.append(f"    f{i} = {read}")
        args.append(f"{name}=f{i}")
    lines += ["    try:", f"        return _cls({', '.join(args)})", "    except InvalidValue as err:",
              "        raise InvalidValue(err.reason, path=_join(path, err.path)) from err"]
    ns: dict[str, Any] = dict(consts)
    exec("def build(obj, path):\n" + "\n".join(lines) + "\n", ns)  # noqa: S102 (generated from field names)
    return ns["build"]


#: Per record class, a function copying every dataclass field, transient ones too, from one instance into
#: a new one (``Record.replace``).
_COPIERS: dict[type, Any] = {}


def _copier(cls: type) -> Any:
    """``copy(src, new)``: every field of ``cls`` set on ``new`` from ``src``, one line per field.

    Written out per class (as ``dataclasses`` writes ``__init__``): half the time of a loop over the
    names with ``getattr`` (issue 18: a replay makes ~100 records a turn file).  Field names are
    identifiers, so the text is safe to compile."""
    names = [f.name for f in dataclasses.fields(typing.cast(Any, cls))]
    assert all(n.isidentifier() for n in names)
    body = "".join(f"    _set(new, {n!r}, src.{n})\n" for n in names) or "    pass\n"
    ns: dict[str, Any] = {}
    exec(f"def copy(src, new, _set=object.__setattr__):\n{body}", ns)  # noqa: S102 (generated from field names)
    return ns["copy"]


def _transients(cls: type) -> tuple[str, ...]:
    out = _TRANSIENTS.get(cls)
    if out is None:
        out = _TRANSIENTS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get(TRANSIENT))
    return out


_TRANSIENTS: dict[type, tuple[str, ...]] = {}


class Record:
    """Base of every frozen value of the model (see the module docstring).

    Subclasses are ``@dataclass(frozen=True)``; a union member sets ``KIND``.
    """

    __slots__ = ()
    KIND: ClassVar[str] = ""
    #: The key a union of records stores ``KIND`` under (``KindUnionSpec``).
    TAG: ClassVar[str] = "kind"
    #: How messages name the record (``a turn file's header``); the class name when empty.
    WHAT: ClassVar[str] = ""

    def __post_init__(self) -> None:
        check = _VALIDATORS.get(type(self))
        if check is None:
            check = _VALIDATORS[type(self)] = _validator(type(self))
        check(self)  # every field by its spec (``_checked_fields``), then ``_check``

    def _checked_fields(self) -> None:
        """Every field checked by its spec, normalised in place where the spec normalises (the plain loop)."""
        for name, spec in field_specs(type(self)).items():
            value = getattr(self, name)
            fixed = spec.check(value, name)
            if fixed is not value:
                object.__setattr__(self, name, fixed)

    def _check(self) -> None:
        """Invariants across fields; raise ``InvalidValue`` with ``path`` = the field."""

    def _check_replaced(self, changes: typing.AbstractSet[str]) -> None:
        """``_check`` of a copy made by ``replace`` changing the fields ``changes`` (a record may check less)."""
        self._check()

    def to_obj(self) -> dict[str, Any]:
        cls = type(self)
        out = {name: spec.to_obj(getattr(self, name)) for name, spec in field_specs(cls).items()}
        for name in absent_fields(cls):
            if out[name] is None:
                del out[name]  # left out, never written as null (``absent``)
        return out

    @classmethod
    def from_obj(cls, obj: Any, path: str = "") -> Self:
        """Build the value from its plain form; raise ``BadEncoding`` naming the bad field."""
        try:
            return cls._from_obj(obj, path)
        except InvalidValue as err:
            raise BadEncoding(f"bad value at {err.path or 'top level'}: {err.reason}", hint=_HINT) from err

    @classmethod
    def _from_obj(cls, obj: Any, path: str) -> Self:
        if type(obj) is dict and obj.keys() == field_specs(cls).keys() and not absent_fields(cls):
            build = _BUILDERS.get(cls)
            if build is None:
                build = _BUILDERS[cls] = _builder(cls)
            built: Self = build(obj, path)  # the fields in order, each as its spec reads it (``_builder``)
            return built
        return cls._from_obj_plain(obj, path)

    @classmethod
    def _from_obj_plain(cls, obj: Any, path: str) -> Self:
        if not isinstance(obj, dict):
            raise InvalidValue(f"expected a map for {_what(cls)}, got {_tname(obj)}", path=path)
        specs = field_specs(cls)
        unknown = sorted((k for k in obj if k not in specs), key=str)
        if unknown:
            key = _key_text(unknown[0])
            raise InvalidValue(f"unknown key {key!r} in {_what(cls)}", path=_join(path, key))
        gaps = absent_fields(cls)
        missing = [k for k in specs if k not in obj and k not in gaps]
        filled: dict[str, Any] = {}
        if missing and _OLDER.get():  # a field gained since the release that wrote it: its default
            filled = {k: _default_of(cls, k) for k in missing}
            missing = [k for k in missing if filled[k] is dataclasses.MISSING]
        if missing:
            raise InvalidValue(f"missing key {missing[0]!r} of {_what(cls)}", path=_join(path, missing[0]))
        for k in gaps:
            if k in obj and obj[k] is None:
                raise InvalidValue(f"the key {k!r} is null: it is left out instead", path=_join(path, k))
        values = {name: spec.from_obj(obj[name], _join(path, name)) if name in obj else filled.get(name)
                  for name, spec in specs.items()}
        try:
            return cls(**values)
        except InvalidValue as err:
            raise InvalidValue(err.reason, path=_join(path, err.path)) from err

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed: the changed fields are checked, then the invariants.

        The unchanged fields were checked when this record was made and are
        immutable, so they are not checked again (docs/decisions.md
        "Integration"); decoding (``from_obj``) always checks everything.
        """
        cls = type(self)
        specs = field_specs(cls)
        for name in changes:
            if name not in specs and name not in _transients(cls):
                raise TypeError(f"{cls.__name__} has no field {name!r}")
        new = object.__new__(cls)
        copy = _COPIERS.get(cls)
        if copy is None:
            copy = _COPIERS[cls] = _copier(cls)
        copy(self, new)
        for name, value in changes.items():
            object.__setattr__(new, name, specs[name].check(value, name) if name in specs else value)
        new._check_replaced(changes.keys())
        return new


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """The path of the first part where two plain values differ, or ``None``.

    Maps are walked in canonical key order, lists by index; the path reads
    like ``powers.FR.treasury`` or ``log[3].text``.  Records are converted
    with ``to_obj`` first.  Used by the sync check to tell a player where
    their state and another's part ways.
    """
    if isinstance(a, Record):
        a = a.to_obj()
    if isinstance(b, Record):
        b = b.to_obj()
    where = path or "(top level)"
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=lambda s: s.encode("utf-8") if isinstance(s, str) else repr(s).encode()):
            p = _join(path, str(k))
            if k not in a or k not in b:
                return p
            d = first_difference(a[k], b[k], p)
            if d is not None:
                return d
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d is not None:
                return d
        if len(a) != len(b):
            return f"{path}[{min(len(a), len(b))}]"
        return None
    if type(a) is not type(b) or a != b:
        return where
    return None
