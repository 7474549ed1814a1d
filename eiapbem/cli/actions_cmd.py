"""One command per registered action, generated from the rules engine's registry.

``eiapbem <phase> <COMMAND> --field value …``: a click group per phase
(``setup``, ``diplomacy``, ``reinforce``, ``naval``, ``land``, ``economy``), a
subcommand per action class named by its ``COMMAND``, options from the
record's typed fields, help from its docstring and its ``BUTTON`` (the
manual's words, so ``--help`` finds "Add Forces To Garrison").  A refusal
prints the action's one-sentence ``IllegalAction``.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
import sys
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.model import Date, Factors, FactorType, Location, LocationKind, Phase, Ships, ShipType
from eiapbem.rules.model.base import OneOf

from .common import PHASE_GROUPS, game_options, open_session, phase_group as _phase_group, place_name, rules_ctx as _ctx

#: Phase -> click group name.
GROUPS = {p: PHASE_GROUPS[p.value][0] for p in Phase}


_FIELD_HELP = {
    "area": "a land area, e.g. moscow ('eiapbem show area NAME')",
    "corps": "a corps counter, e.g. corps:RU:I ('eiapbem show pool')",
    "fleet": "a fleet counter, e.g. fleet:GB:1",
    "depot": "a depot counter, e.g. depot:FR:1",
    "leader": "a leader, e.g. leader:FR:napoleon",
    "unit": "a corps, fleet, depot or garrison id",
    "counter": "a corps, fleet or leader id, e.g. corps:AU:I ('eiapbem show units')",
    "port": "a port's land area, e.g. brest",
    "sea": "a sea area, e.g. north-sea",
    "blockade": "an enemy port whose blockade box the fleet takes",
    "nation": "a free state you control whose factors these are (default: your own)",
    "at": "city: the area's city garrison; depot: the garrison of your depot in the area",
    "square": "a square of the economic manipulation display (12.4.3): -3 to 3 on the shipped display, 0 for none",
    "path": "the places entered, in order, separated by commas: land areas (freiburg,swabia,innsbruck) or, for "
            "a fleet, sea areas, ports and blockade boxes (english-channel,box:brest)",
    "place": "a sea area (north-sea), a port (brest) or a blockade box (box:brest)",
    "stack": "move every fleet of the stack in the fleet's place that may still move (8.4.3)",
    "intercept": "attempt to intercept enemy stacks passing by (8.5.3); without it, no attempts",
    "evasion": "when attacked outside an interception or port combat (9.2.1.1)",
    "target": "the power or minor country the order is aimed at, e.g. FR or bavaria",
    "item": "what to buy; prices: 'eiapbem tables show purchase-cost'",
    "count": "how many; 'eiapbem economy summary' shows the money and manpower left",
    "infantry": "how many infantry factors", "militia": "how many militia factors",
    "cavalry": "how many cavalry factors", "guard": "how many guard factors",
    "artillery": "how many artillery factors", "heavy": "how many heavy ships", "light": "how many light ships",
    "transport": "how many transports",
    "forced_march": "forced march: one movement point more (10.4.1)",
    "city": "end the move inside the city of the last area (10.4.3-10.4.4, 13.5.2)",
    "use_depot": "live off the ungarrisoned enemy depot destroyed in the last area: the move ends, foraged with no loss (10.4.6)",
}


#: Help for one command's field where the shared text above would mislead (the same field name means
#: different things in different actions: ``--target`` of ``declare-war`` is not a piracy target). Keyed by the
#: command's name, which two phases may share ("move", "attack"): their fields differ (unit/fleet, area/place).
_COMMAND_FIELD_HELP = {
    ("declare-war", "target"): "the major power (FR) or neutral minor country (bavaria) to declare war on",
    ("piracy", "target"): "the power whose trade the privateers prey on (8.9)",
    ("deduct-vp", "target"): "the enemy power whose victory points are reduced (12.1.2)",
    ("stop-usa-trade", "target"): "the enemy power whose American trade is stopped (12.2.1)",
    ("sue-for-peace", "to"): "the enemy power you sue for peace",
    ("sue-for-peace", "accept_unconditional"): "accept unconditional terms if they are offered (conditional terms "
                                               "are always accepted, 6.4.2)",
    ("informal-peace", "enemy"): "the enemy power offered an informal peace",
    ("surrender-terms", "enemy"): "the enemy these settings are toward",
    ("surrender-terms", "give_conditional"): "offer conditional terms if this enemy sues (else unconditional)",
    ("surrender-terms", "term"): "a term you take as victor, from lists B and C, in order of preference, e.g. B.2 "
                                 "('eiapbem tables show victory-conditions' lists them)",
    ("surrender-terms", "accept_informal"): "accept an informal peace offered by this enemy (6.4.1)",
    ("surrender-terms", "allow_separate_peace"): "let your allies make a separate peace with this enemy",
    ("surrender-terms", "if_conditional_offered"): "the list-A condition you claim when you surrender conditionally",
    ("attack", "place"): "where: a sea area (north-sea), a blockade box (box:brest) or an enemy port (brest); your "
                         "fleet must be there already: to attack in a port, end its 'naval move' path in the port "
                         "itself (...,box:brest,brest; 'eiapbem show reach FLEET')",
    ("add-factors", "corps"): "your corps on the map that takes them, e.g. corps:PR:II ('eiapbem show units --kind corps')",
    ("move", "unit"): "the corps to move, e.g. corps:PR:II ('eiapbem show units --kind corps')",
    ("besiege", "unit"): "your corps in the area of the enemy-held city, e.g. corps:PR:II",
    ("forage", "unit"): "your corps whose movement is over, e.g. corps:PR:II",
    ("request-action", "area"): "the land area the ally is to attack in or defend, e.g. munich ('eiapbem show area NAME')",
    ("supply-choice", "loss_order"): "a factor type foraging takes first (cavalry, infantry...); give it again for the next",
    ("accept-control", "withdraw"): "take the standing order back",
    ("request-alliance", "withdraw"): "take the request back",
    ("grant-access", "cancel"): "rescind the access (three months' grace, 13.4.1)",
    ("trade", "stop"): "end the trade",
    ("manipulate", "investment"): "money spent on the attempt (6.1.4); 0 by default",
    ("buy-counter", "unit"): "a corps or fleet counter of your counter pool, e.g. corps:PR:VII ('eiapbem show pool')",
    ("transfer-factors", "source"): "the corps or garrison the factors leave, e.g. corps:PR:I or garrison:PR:city:berlin",
    ("transfer-factors", "target"): "the corps or garrison they join, in the same area ('eiapbem show units')",
    ("transfer-ships", "source"): "the fleet the ships leave, e.g. fleet:GB:1",
    ("transfer-ships", "target"): "the fleet they join, in the same place ('eiapbem show units --kind fleet')",
}


def _field_help(command: str, field: str, default: str | None = None, cls: type | None = None) -> str | None:
    """The help of one option: the command's own text, else the field's ``#:`` comment in the action record,
    else the shared text, else ``default``."""
    if (command, field) in _COMMAND_FIELD_HELP:
        return _COMMAND_FIELD_HELP[(command, field)]
    noted = _field_comments(cls.__module__, cls.__name__).get(field) if cls is not None else None
    return noted or _FIELD_HELP.get(field, default)


@functools.lru_cache(maxsize=None)
def _module_lines(module: str) -> tuple[str, ...]:
    """The source lines of a loaded module (empty when it has no file, e.g. a frozen build)."""
    path = getattr(sys.modules.get(module), "__file__", None)
    try:
        return tuple(Path(path).read_text(encoding="utf-8").splitlines()) if path else ()
    except OSError:
        return ()


@functools.lru_cache(maxsize=None)
def _field_comments(module: str, name: str) -> dict[str, str]:
    """The ``#:`` comment written above each field of the record class ``name`` (its documentation)."""
    lines = _module_lines(module)
    out: dict[str, str] = {}
    start = next((i for i, line in enumerate(lines) if line.startswith(f"class {name}(")), None)
    if start is None:
        return out
    note: list[str] = []
    for line in lines[start + 1:]:
        if line.startswith(("class ", "@", "def ")):
            break
        text = line.strip()
        if text.startswith("#:"):
            note.append(text[2:].strip())
            continue
        field = re.match(r"([a-z_][a-z0-9_]*)\s*:", text)
        if field and note and not text.startswith(("def ", "return")):
            out[field.group(1)] = re.sub(r"``([^`]*)``", r"'\1'", " ".join(note))  # reST literals as the CLI quotes
        note = []
    return out


#: Fields naming places on the map (lower case, hyphens): typed names are put in that spelling.
_PLACE_FIELDS = ("path", "area", "port", "sea", "place", "blockade")


def _opt(name: str) -> str:
    return "--" + name.replace("_", "-")


def _base(hint: Any) -> tuple[Any, bool]:
    """The plain type of a hint (Annotated stripped) and whether ``None`` is allowed."""
    optional = False
    if typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        hint = args[0] if len(args) == 1 else str
        if typing.get_origin(hint) is typing.Annotated:
            hint = typing.get_args(hint)[0]
    return hint, optional


#: Option names the game commands use themselves; a field of that name gets ``--<name>-id``.
_RESERVED = ("game", "power", "password", "help", "home")


#: A command's field that takes fewer of its type's values than the type lists (the rules refuse the others).
_COMMAND_FIELD_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("surrender-terms", "if_conditional_offered"): ("A.1", "A.2", "A.3", "A.4", "A.5"),  # list A only (6.4.2)
}


def _choices(hint: Any) -> tuple[str, ...] | None:
    """The fixed list of a ``str`` field annotated ``OneOf`` (also inside ``X | None``), else None."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        for a in typing.get_args(hint):
            c = _choices(a)
            if c:
                return c
        return None
    if typing.get_origin(hint) is typing.Annotated:
        for m in typing.get_args(hint)[1:]:
            if isinstance(m, OneOf):
                return tuple(m.choices)
    return None


def _params(cls: type, command: str = "", reserved: tuple[str, ...] = _RESERVED) -> tuple[list[click.Parameter], dict[str, Any]]:
    """Click options for an action record's fields, and how to rebuild each field from them.

    Each option's parameter is named ``f_<field>[_<part>]`` so no field can clash
    with the common options; a second ``Factors``/``Ships`` field gets its
    options prefixed with its name (``--to-infantry``).
    """
    hints = typing.get_type_hints(cls, include_extras=True)
    params: list[click.Parameter] = []
    build: dict[str, Any] = {}
    seen_counts = {"factors": False, "ships": False}
    for f in dataclasses.fields(cls):
        hint, optional = _base(hints[f.name])
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING and not optional
        opt = _opt(f.name + "_id" if f.name in reserved else f.name)
        pname = f"f_{f.name}"
        if hint is Factors or hint is Ships:
            which = "factors" if hint is Factors else "ships"
            parts = [k.value.replace("-", "_") for k in (FactorType if hint is Factors else ShipType)]
            prefix = f"{f.name}_" if seen_counts[which] else ""
            seen_counts[which] = True
            for n in parts:
                params.append(click.Option([_opt(prefix + n), f"{pname}_{n}"], type=click.IntRange(0), default=0,
                                           help=f"{n.replace('_', ' ')} {'factors' if hint is Factors else 'ships'}"))
            build[f.name] = (which, [(n, f"{pname}_{n}") for n in parts])
        elif hint is bool:
            params.append(click.Option([opt, pname], is_flag=True, default=False, help=_field_help(command, f.name, cls=cls)))
            build[f.name] = ("plain", pname)
        elif isinstance(hint, type) and issubclass(hint, enum.Enum):
            params.append(click.Option([opt, pname], type=click.Choice([e.value for e in hint]), required=required,
                                       help=_field_help(command, f.name, cls=cls)))
            build[f.name] = ("plain", pname)
        elif typing.get_origin(hint) is tuple:
            noted = _field_help(command, f.name, cls=cls)
            params.append(click.Option([opt, pname], multiple=True,
                                       help=f"{noted.rstrip('.')}; may be given several times" if noted else "may be given several times"))
            build[f.name] = ("tuple", pname)
        elif choices := _choices(hints[f.name]):
            listed = _COMMAND_FIELD_CHOICES.get((command, f.name)) or choices
            params.append(click.Option([opt, pname], type=click.Choice(listed), required=required,
                                       help=_field_help(command, f.name, cls=cls)))
            build[f.name] = ("plain", pname)
        elif hint is int:
            params.append(click.Option([opt, pname], type=int, required=required, help=_field_help(command, f.name, cls=cls)))
            build[f.name] = ("plain", pname)
        elif hint is Location:
            params.append(click.Option([opt, pname], type=str, required=required, metavar="KIND:SITE",
                                       help="a place: area:NAME, city:NAME, sea:NAME, port:NAME, blockade:NAME or pool"))
            build[f.name] = ("location", pname)
        elif hint is Date:
            params.append(click.Option([opt, pname], type=str, required=required, metavar="YYYY-MM", help="a game month"))
            build[f.name] = ("date", pname)
        else:
            params.append(click.Option([opt, pname], type=str, required=required, metavar="ID",
                                       help=_field_help(command, f.name, f"the {f.name.replace('_', ' ')}", cls)))
            build[f.name] = ("plain", pname)
    return params, build


def _make(cls: type, build: dict[str, Any], values: dict[str, Any]) -> Any:
    kwargs: dict[str, Any] = {}
    for field, (how, names) in build.items():
        if how in ("factors", "ships"):
            counts = {n: values.pop(p) for n, p in names}
            kwargs[field] = (Factors if how == "factors" else Ships)(**{n: v for n, v in counts.items() if v})
        elif how == "tuple":
            kwargs[field] = tuple(values.pop(names))
        elif how in ("location", "date") and values.get(names) is not None:
            text = values.pop(names)
            if how == "date":
                kwargs[field] = Date.parse(text)
            else:
                kind, _, site = text.partition(":")
                if kind not in {k.value for k in LocationKind}:
                    raise click.BadParameter(f"{text!r} is not a place like area:moscow or port:brest")
                kwargs[field] = Location(LocationKind(kind), site)
        else:
            v = values.pop(names)
            if v is not None:
                kwargs[field] = v
    return cls(**kwargs)


def action_command(spec: engine.ActionSpec) -> click.Command:
    cls = spec.cls
    name = getattr(cls, "COMMAND", None) or cls.KIND.split(".")[-1]
    button = getattr(cls, "BUTTON", None)
    short = spec.summary + (f" (manual: {button})" if button else "")
    help_text = spec.summary + (f"\n\n(manual: {button})" if button else "")
    params, build = _params(cls, name)

    def callback(**values: Any) -> None:
        common = {k: values.pop(k) for k in ("game", "power", "password")}
        for field in _PLACE_FIELDS:  # 'Cracow', 'St Petersburg', 'cracow, warsaw' as typed
            if isinstance(values.get(f"f_{field}"), str):
                values[f"f_{field}"] = place_name(values[f"f_{field}"])
        action = _make(cls, build, values)
        s = open_session(**common)
        slot = s.state.slot
        if slot is not None and slot.phase not in spec.phases:
            now = GROUPS[slot.phase]
            raise IllegalAction(f"'eiapbem {GROUPS[spec.phases[0]]} {name}' is an order of the {spec.phases[0]} phase; "
                                f"the game is in the {slot.phase} phase of {s.state.date.name}",
                                hint=f"'eiapbem {now} --help' lists what you can do now; 'eiapbem status' says whose turn it is")
        out = s.act(action)
        for e in out.events:
            click.echo(e.text)
        if not out.events:
            # Orders of a simultaneous phase log nothing until the phase resolves: confirm them here.
            n = len(s.taken())
            from .economy_cmd import unaffordable

            why = unaffordable(s, action)  # issue 20: never "accepted" for a purchase that cannot be paid
            if why:
                click.echo(f"{s.power}: {name} {_describe(action)} is taken but will NOT be carried out as things stand: "
                           f"it {why} in the projection ('eiapbem economy summary'); 'eiapbem restart' takes back this phase's orders")
            else:
                click.echo(f"{s.power}: {name} {_describe(action)} accepted ({n} order{'s' if n != 1 else ''} so far in "
                           "this phase; 'eiapbem end-phase' sends them)")
            for line in peace_terms_words(action, s.power):
                click.echo(line)
        from eiapbem.client.status import answer_hint, to_do

        left = to_do(s.current(), s.power, _ctx(s)) if s.state.slot and s.power in s.state.slot.actors else ()
        if left:
            ask = answer_hint(s.current().pending.values(), [s.power])
            click.echo(f"still to do: {ask or left[0]}")

    cmd = click.Command(name, callback=callback, params=params, help=help_text, short_help=short)
    return game_options(cmd)


def host_act_command(spec: engine.HostActSpec, run: Callable[..., None]) -> click.Command:
    """A command of the admin menu made from an admin act's fields, like a player's action's: ``run(act, game=...,
    password=...)`` makes the act (``cli/admin_cmd.py`` writes the admin file)."""
    cls = spec.cls
    name = getattr(cls, "COMMAND", None) or cls.KIND.split(".", 1)[1]
    params, build = _params(cls, name, reserved=tuple(r for r in _RESERVED if r != "power"))  # no --power here

    def callback(**values: Any) -> None:
        common = {k: values.pop(k) for k in ("game", "password")}
        run(_make(cls, build, values), **common)

    return click.Command(name, callback=callback, params=params, help=spec.summary, short_help=spec.summary)


def peace_terms_words(action: Any, power: str) -> list[str]:
    """The victory conditions an order names (``--term``, ``--if-conditional-offered``), each with its name and
    what it does (15.0): the codes alone say nothing to a new player."""
    from eiapbem.core.powers import POWER_NAMES
    from eiapbem.rules.tables.diplomacy import peace_term_effect, peace_term_title

    enemy = getattr(action, "enemy", None)
    mine = tuple(getattr(action, "term", ()) or ())
    claim = getattr(action, "if_conditional_offered", None)
    if enemy not in POWER_NAMES or not (mine or claim):
        return []
    me, them = POWER_NAMES.get(power, power), POWER_NAMES[enemy]
    out = [f"  if {them} surrenders to {me}: {peace_term_title(c)} - {peace_term_effect(c, me, them)}" for c in mine]
    if claim:
        out.append(f"  if {me} surrenders conditionally to {them}: {peace_term_title(claim)} - "
                   f"{peace_term_effect(claim, them, me)}")
    return out


def _describe(action: Any) -> str:
    """An action's fields as ``--name value`` words, in field order (None and empty omitted)."""
    words = []
    for f in dataclasses.fields(action):
        v = getattr(action, f.name)
        if v is None or v == () or v is False:
            continue
        if v is True:  # a flag: its name alone, as typed
            words.append(_opt(f.name))
            continue
        if isinstance(v, tuple):  # an option given several times, as typed ("--term B.3 --term B.6")
            words.extend(f"{_opt(f.name)} {x}" for x in v)
            continue
        if isinstance(v, enum.Enum):
            v = v.value
        elif isinstance(v, (Factors, Ships)):
            v = " ".join(f"{n}={c}" for n, c in v.to_obj().items() if c) if hasattr(v, "to_obj") else v
        elif isinstance(v, Location):
            v = f"{v.kind.value}:{v.site}" if v.site else v.kind.value
        elif isinstance(v, (tuple, list)):  # a repeatable option: once per value, as typed (--term B.3 --term B.4)
            words.extend(f"{_opt(f.name)} {x.value if isinstance(x, enum.Enum) else x}" for x in v)
            continue
        words.append(f"{_opt(f.name)} {v}")
    return " ".join(words)


def phase_group(cli: click.Group, phase: Phase) -> click.Group:
    return _phase_group(cli, phase)


def register(cli: click.Group) -> None:
    for phase in GROUPS:
        group = phase_group(cli, phase)
        for kind, spec in engine.action_kinds(phase).items():
            if kind == "decision.answer" or getattr(spec.cls, "INTERNAL", False) or getattr(spec.cls, "ANY_PHASE", False):
                continue  # 'eiapbem answer DECISION CHOICE' in every phase; settings (ANY_PHASE) at the top level
            group.add_command(action_command(spec))
    for kind, spec in engine.action_kinds().items():
        if getattr(spec.cls, "ANY_PHASE", False):
            cli.add_command(action_command(spec))  # e.g. 'eiapbem skip --phase naval --mode continuous' (13.9)
