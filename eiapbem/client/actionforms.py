"""The orders' forms: each action's fields described as plain data, and an action built from a form's values.

The CLI makes one command per action from these descriptions (``cli/actions_cmd.py``: an option per field,
its help from ``field_help``); ``eiapbem view`` makes one form per action from the same descriptions
(``describe``, ``catalogue``) and builds the action from the page's values with ``from_form``, through the
strict decoder a turn file's actions go through (``rules.engine.action_from_obj``).  The help of a field is
the command's own text (``COMMAND_FIELD_HELP``), else the ``#:`` comment above the field in the action
record, else the shared text (``FIELD_HELP``).  ``ANSWER_HELP`` explains the choices of a battle's questions
('eiapbem answer --help' and the view's question box).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
import sys
import types
import typing
from pathlib import Path
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.core.places import place_name
from eiapbem.core.spec import OneOf

#: The help of a field, by its name, shared by every action that has it.
FIELD_HELP = {
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
COMMAND_FIELD_HELP = {
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


def field_help(command: str, field: str, default: str | None = None, cls: type | None = None) -> str | None:
    """The help of one option: the command's own text, else the field's ``#:`` comment in the action record,
    else the shared text, else ``default``."""
    if (command, field) in COMMAND_FIELD_HELP:
        return COMMAND_FIELD_HELP[(command, field)]
    noted = field_comments(cls.__module__, cls.__name__).get(field) if cls is not None else None
    return noted or FIELD_HELP.get(field, default)


@functools.lru_cache(maxsize=None)
def _module_lines(module: str) -> tuple[str, ...]:
    """The source lines of a loaded module (empty when it has no file, e.g. a frozen build)."""
    path = getattr(sys.modules.get(module), "__file__", None)
    try:
        return tuple(Path(path).read_text(encoding="utf-8").splitlines()) if path else ()
    except OSError:
        return ()


@functools.lru_cache(maxsize=None)
def field_comments(module: str, name: str) -> dict[str, str]:
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
PLACE_FIELDS = ("path", "area", "port", "sea", "place", "blockade")


def base_type(hint: Any) -> tuple[Any, bool]:
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
RESERVED = ("game", "power", "password", "help", "home")


#: A command's field that takes fewer of its type's values than the type lists (the rules refuse the others).
COMMAND_FIELD_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("surrender-terms", "if_conditional_offered"): ("A.1", "A.2", "A.3", "A.4", "A.5"),  # list A only (6.4.2)
}


def choices(hint: Any) -> tuple[str, ...] | None:
    """The fixed list of a ``str`` field annotated ``OneOf`` (also inside ``X | None``), else None."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        for a in typing.get_args(hint):
            c = choices(a)
            if c:
                return c
        return None
    if typing.get_origin(hint) is typing.Annotated:
        for m in typing.get_args(hint)[1:]:
            if isinstance(m, OneOf):
                return tuple(m.choices)
    return None




# ----------------------------------------------------------------- forms


def command_name(cls: type) -> str:
    """The command (and form) name of an action class: its ``COMMAND``, else the last part of its ``KIND``."""
    return getattr(cls, "COMMAND", None) or str(getattr(cls, "KIND")).split(".")[-1]


def offered(spec: Any) -> bool:
    """Whether an action is given as a command and a form of its phase: not the answer to a question (its own
    command, 'eiapbem answer'), not one the client writes itself (``INTERNAL``)."""
    return spec.cls.KIND != "decision.answer" and not getattr(spec.cls, "INTERNAL", False)


def next_month(spec: Any) -> bool:
    """Whether an order may also be given for next month's diplomacy phase, sealed in the power's last file of this
    month (the CLI's ``--next-month``, the page's forms for next month; ``Session.order_ahead``): a diplomacy
    order (6.0, 000:532)."""
    from eiapbem.rules.model import Phase

    return Phase.DIPLOMACY in spec.phases


def describe(cls: type) -> list[dict]:
    """The fields of an action class as a form shows them: ``{"name", "kind", "required", "help", "choices",
    "parts", "default", "place"}``; ``kind`` is text, number, flag, choice, list, factors, ships, location or
    date; ``parts`` the types of a factors or ships field; ``place`` whether it names a place on the map."""
    from eiapbem.core.record import field_specs
    from eiapbem.rules.model import Date, Factors, FactorType, Location, Ships, ShipType

    command = command_name(cls)
    hints = typing.get_type_hints(cls, include_extras=True)
    specs = field_specs(cls)
    out = []
    for f in dataclasses.fields(cls):
        hint, optional = base_type(hints[f.name])
        has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        default = None
        if has_default:
            value = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc,operator]
            default = specs[f.name].to_obj(value)
        row: dict = {"name": f.name, "required": not has_default and not optional, "default": default,
                     "help": field_help(command, f.name, f"the {f.name.replace('_', ' ')}", cls),
                     "choices": None, "parts": None, "place": f.name in PLACE_FIELDS}
        if hint is Factors or hint is Ships:
            row.update(kind="factors" if hint is Factors else "ships",
                       parts=[k.value.replace("-", "_") for k in (FactorType if hint is Factors else ShipType)])
        elif hint is bool:
            row["kind"] = "flag"
        elif isinstance(hint, type) and issubclass(hint, enum.Enum):
            row.update(kind="choice", choices=[e.value for e in hint])
        elif typing.get_origin(hint) is tuple:
            row.update(kind="list", choices=list(choices(hints[f.name]) or ()) or None)
        elif choices(hints[f.name]):
            row.update(kind="choice", choices=list(COMMAND_FIELD_CHOICES.get((command, f.name)) or choices(hints[f.name]) or ()))
        elif hint is int:
            row["kind"] = "number"
        elif hint is Location:
            row["kind"] = "location"
        elif hint is Date:
            row["kind"] = "date"
        else:
            row["kind"] = "text"
        out.append(row)
    return out


def catalogue(phase: Any) -> list[dict]:
    """Every order of ``phase`` (a ``Phase``) with its form: ``{"kind", "command", "summary", "button", "any_phase",
    "next_month", "fields"}``, in the order 'eiapbem GROUP --help' lists them."""
    from eiapbem.rules import engine

    out = []
    for kind, spec in sorted(engine.action_kinds(phase).items(), key=lambda kv: command_name(kv[1].cls)):
        if not offered(spec):
            continue
        out.append({"kind": kind, "command": command_name(spec.cls), "summary": spec.summary,
                    "button": getattr(spec.cls, "BUTTON", None), "any_phase": bool(getattr(spec.cls, "ANY_PHASE", False)),
                    "next_month": next_month(spec), "fields": describe(spec.cls)})
    return out


def check_phase(spec: Any, state: Any) -> None:
    """Refuse an order of another phase than the one in play, in the sentence 'eiapbem PHASE COMMAND' gives."""
    from .status import PHASE_COMMANDS

    slot = state.slot
    if slot is None or slot.phase in spec.phases:
        return
    name = command_name(spec.cls)
    if getattr(spec.cls, "ANY_PHASE", False):
        where = ", ".join(str(p) for p in spec.phases[:-1]) + f" or {spec.phases[-1]}"
        raise IllegalAction(f"'eiapbem {name}' is taken in one of your own slots of the {where} phase; the game is "
                            f"in the {slot.phase} phase of {state.date.name}, whose slot takes only its own orders",
                            hint=f"run 'eiapbem {name}' again in your next such slot ('eiapbem status' says whose "
                                 "turn it is); a setting made there counts from the next phase it names")
    group, now = PHASE_COMMANDS[spec.phases[0].value], PHASE_COMMANDS[slot.phase.value]
    raise IllegalAction(f"'eiapbem {group} {name}' is an order of the {spec.phases[0]} phase; "
                        f"the game is in the {slot.phase} phase of {state.date.name}",
                        hint=f"'eiapbem {now} --help' lists what you can do now; 'eiapbem status' says whose turn it is")


#: Kinds of order that set something the power keeps (besides ``engine.is_setting``'s standing orders): given again
#: with the same values they change nothing.
SETTING_KINDS = ("irregulars.set-insurrection-triggers", "land.supply-choice")


def refuse_no_effect(state: Any, power: str, action: Any, ctx: Any) -> None:
    """Refuse, nothing taken, an order that would change nothing (it was taken again and counted as an order): a
    phase skip setting (13.9) the power's settings and orders so far already hold, or a standing order or other
    setting given again with the values it has."""
    from eiapbem.core.errors import EiaError
    from eiapbem.rules import engine, skips
    from eiapbem.rules.model import Phase

    if power not in state.powers:
        return
    if getattr(action, "KIND", "") != skips.SetSkip.KIND:
        if not (engine.is_setting(type(action)) or getattr(action, "KIND", "") in SETTING_KINDS):
            return
        try:
            after = engine.apply_action(state, power, action, ctx).state
        except EiaError:
            return  # refused: ``Session.act`` says why in the rules' words
        again = action in engine.given_orders(state, power)  # on the phase's sheet already: only a copy is added
        if after == state or (again and after.replace(order_sheet=state.order_sheet) == state):
            from .status import PHASE_COMMANDS

            phases = engine.action_kinds()[action.KIND].phases
            phase = state.slot.phase if state.slot is not None and state.slot.phase in phases else phases[0]
            raise IllegalAction(f"this does nothing: {power} has given 'eiapbem {PHASE_COMMANDS[phase.value]} "
                                f"{command_name(type(action))}' with these values already",
                                hint="nothing was taken; 'eiapbem status' says what is still to do")
        return
    if action.mode == "off":
        return
    phase = Phase(action.phase)
    if skips.setting(state, power, phase) != action.mode:
        return
    how = "once" if action.mode == "once" else "until the setting is switched off"
    stored = state.powers[power].skips.get(phase)
    given = stored is None or stored.value != action.mode  # an order of this phase's, set when the phase resolves
    raise IllegalAction(f"this does nothing: {power} {'has given the order to skip' if given else 'already skips'} the "
                        f"{action.phase} phase {how} (13.9)",
                        hint="'eiapbem status' shows the settings; 'eiapbem restart' takes back this slot's orders")


class BadForm(IllegalAction):
    """A form's values that make no order (a missing or unknown field, a value of the wrong kind)."""


def from_form(kind: str, values: Any) -> Any:
    """The action ``kind`` with a form's ``values`` (``{field: value}``; fields left out take their defaults).

    A value is what the form holds: text, a whole number, true/false, a list of texts, ``{type: count}`` for
    factors and ships, ``KIND:SITE`` for a place, ``YYYY-MM`` for a month.  The record is then decoded by
    ``rules.engine.action_from_obj``, as a turn file's actions are, so a value of the wrong kind is one sentence.
    """
    from eiapbem.rules import engine

    spec = engine.action_kinds().get(kind) if isinstance(kind, str) else None
    if spec is None or not offered(spec):
        raise BadForm(f"{kind!r} is not an order of this game", hint="the orders of the phase are listed in the page")
    if not isinstance(values, dict) or not all(isinstance(k, str) for k in values):
        raise BadForm(f"the {command_name(spec.cls)} order's values must be a map of field names")
    cls, command = spec.cls, command_name(spec.cls)
    rows = {r["name"]: r for r in describe(cls)}
    unknown = sorted(set(values) - set(rows))
    if unknown:
        raise BadForm(f"the {command} order has no field {unknown[0]!r}; its fields: {', '.join(rows)}")
    obj: dict = {"kind": kind}
    for name, row in rows.items():
        v = values.get(name)
        if v is None or v == "" or (row["kind"] == "list" and v == []):
            if row["required"]:
                raise BadForm(f"the {command} order needs --{name.replace('_', '-')}: {row['help']}")
            obj[name] = row["default"]
            continue
        if row["place"] and isinstance(v, str):
            v = place_name(v)
        if row["kind"] in ("factors", "ships"):
            if not isinstance(v, dict):
                raise BadForm(f"--{name.replace('_', '-')} of the {command} order is counts by type")
            full = {p: 0 for p in row["parts"]}
            full.update(v)
            v = full
        elif row["kind"] == "location" and isinstance(v, str):
            where, _, site = v.partition(":")
            v = {"kind": where, "site": site}
        elif row["kind"] == "list" and isinstance(v, str):
            v = [x for x in (p.strip() for p in v.split(",")) if x]
        elif row["kind"] == "number" and isinstance(v, str):
            try:
                v = int(v.strip())
            except ValueError:
                raise BadForm(f"--{name.replace('_', '-')} of the {command} order is a whole number, not {v!r}") from None
        obj[name] = v
    return engine.action_from_obj(obj, f"the {command} order")


#: What a chit of a field battle does (11.2.1), in the words of 'eiapbem answer --help' (``ANSWER_HELP``, where
#: each stands; tests/view/test_view.py checks it): the view's question box explains the choices with them.
CHITS = {
    "outflank": "needs two corps; leans on the commander's strategic rating",
    "assault": "bloody, weak against defend",
    "escalated-assault": "bloody, weak against defend",
    "echelon": "best with better morale",
    "probe": "cautious, good against defend",
    "defend": "saves casualties",
    "withdrawal": "avoid battle",
}

#: 'eiapbem answer --help' (the command's help text) and the view's question box.
ANSWER_HELP = """Answer a pending decision ('eiapbem status' lists them with their choices).

\b
Example: eiapbem answer battle:1805-01:cracow:0/0 assault
Battle chits (11.2.1): the attacker picks first, then the defender.
Attacker: outflank (needs two corps; leans on the commander's
strategic rating), assault / escalated-assault (bloody, weak against
defend), echelon (best with better morale), probe (cautious, good
against defend). Defender: outflank, counter-attack /
escalated-counter-attack, defend (saves casualties), withdrawal
(avoid battle). 'eiapbem tables show operational-possibilities'
prints which chit beats which; 'eiapbem battle report BATTLE-ID'
the rounds so far. Losses (11.2.9): one factor, corps:FR:III/infantry,
or all of them in one answer, corps:FR:III/infantry=2,corps:FR:IV/cavalry;
a pursuit loss is one cavalry factor, three others or six militia.
Commander (13.8.6): of leaders of equal seniority, the one who commands.
Chits of a corps defending when you are not asked: 'eiapbem land
battle-orders'.
"""
