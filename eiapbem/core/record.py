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

import contextlib
import contextvars
import dataclasses
import enum
import types
import typing
from typing import Any, ClassVar, Self

from eiapbem.core.errors import BadEncoding
from eiapbem.core.errors import InvalidValue as InvalidValue  # defined there, re-exported: the model imports it here
from eiapbem.core.frozenmap import FrozenMap as FrozenMap  # the same: defined there, imported from here
from eiapbem.core.spec import HINT as _HINT
from eiapbem.core.spec import MAX_STR as MAX_STR  # the spec names a record's field may carry, imported from here too
from eiapbem.core.spec import (
    EnumSpec,
    KindUnionSpec,
    MapSpec,
    OneOf,
    OptionalSpec,
    Pattern,
    Plain,
    PlainSpec,
    Range,
    RecordSpec,
    ScalarSpec,
    ScalarUnionSpec,
    Size,
    SortedSet,
    Spec,
    TupleSpec,
)
from eiapbem.core.spec import compiled as _compiled
from eiapbem.core.spec import join_path as _join
from eiapbem.core.spec import key_text as _key_text
from eiapbem.core.spec import name_of as _what
from eiapbem.core.spec import type_name as _tname

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
