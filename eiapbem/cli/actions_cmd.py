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
import re
import typing
from collections.abc import Callable
from typing import Any

import click

from eiapbem.rules import engine
from eiapbem.rules.model import Date, Factors, FactorType, Location, LocationKind, Phase, Ships, ShipType

from eiapbem.client.actionforms import check_phase, next_month as _next_month, refuse_no_effect
from eiapbem.client.actionforms import (COMMAND_FIELD_CHOICES as _COMMAND_FIELD_CHOICES, PLACE_FIELDS as _PLACE_FIELDS,
                                       RESERVED as _RESERVED, base_type as _base, choices as _choices,
                                       field_help as _field_help)
from .common import PHASE_GROUPS, confirm_or_refuse, game_options, open_session, phase_group as _phase_group, place_name, rules_ctx as _ctx

#: Phase -> click group name.
GROUPS = {p: PHASE_GROUPS[p.value][0] for p in Phase}


def _opt(name: str) -> str:
    return "--" + name.replace("_", "-")


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
    ahead_ok = _next_month(spec)
    if ahead_ok:
        params.append(click.Option(["--next-month", "next_month"], is_flag=True, default=False,
                                   help="an order for next month's diplomacy phase: it is sealed in your land file of "
                                        "this month, so you play no commit round then (6.0); the rules check it when it "
                                        "is revealed and drop it if it no longer holds"))
    from eiapbem.client.documents import PURCHASES

    purchase = cls.KIND in PURCHASES
    attack = cls.KIND in COMBATS
    if attack:
        params.append(click.Option(["--yes"], is_flag=True, default=False,
                                   help="go ahead without asking when a corps would forage that a depot placed first "
                                        "could supply, or a corps is still aboard (the first attack, assault or "
                                        "garrison attack ends movement and supplies every corps, 10.5, 11.0)"))
    if purchase:
        params.append(click.Option(["--even-if-short", "even_if_short"], is_flag=True, default=False,
                                   help="give the order although the projection cannot pay it (money you expect from "
                                        "an ally's loan this phase, 12.3): what step E cannot pay is not bought (12.5)"))

    def callback(**values: Any) -> None:
        common = {k: values.pop(k) for k in ("game", "power", "password")}
        ahead = bool(values.pop("next_month", False))
        short_ok = bool(values.pop("even_if_short", False))
        yes = bool(values.pop("yes", False))
        for field in _PLACE_FIELDS:  # 'Cracow', 'St Petersburg', 'cracow, warsaw' as typed
            if isinstance(values.get(f"f_{field}"), str):
                values[f"f_{field}"] = place_name(values[f"f_{field}"])
        action = _make(cls, build, values)
        s = open_session(**common)
        if ahead:
            n = s.order_ahead(action)
            click.echo(f"{s.power}: {name} {_describe(action)} given for {s.state.date.next().name}'s diplomacy phase "
                       f"({n} order{'s' if n != 1 else ''} for it so far); 'eiapbem end-phase' in your land slot seals "
                       "them in that file")
            return
        check_phase(spec, s.state)
        if s.state.slot is not None and s.power in s.state.slot.actors:
            refuse_no_effect(s.current(), s.power, action, _ctx(s))
        if purchase and not short_ok:
            refuse_unpaid(s, name, action)
        if attack:
            supply_first(s, action, yes)
        out = s.act(action)
        if getattr(action, "ANSWER", False) and s.last_battle_file is not None:  # a battle's standing orders (4.2.7)
            click.echo(f"{s.power}: standing orders for the rest of the battle {getattr(action, 'battle', '')}; your reply "
                       f"is battles/{s.last_battle_file.name}: send it to your opponent, the battle then needs no more "
                       "files (4.2.7)")
            return
        for e in out.events:
            click.echo(e.text)
        if not out.events:
            # Orders of a simultaneous phase log nothing until the phase resolves: confirm them here.
            n = len(s.taken())
            from .economy_cmd import unaffordable

            why = unaffordable(s, action)  # never "accepted" for a purchase that cannot be paid (--even-if-short)
            if why:
                click.echo(f"{s.power}: {name} {_describe(action)} is taken but will NOT be carried out as things stand: "
                           f"it {why} in the projection ('eiapbem economy summary'); it is bought only if money comes "
                           "in before step E (an ally's loan, 12.3); 'eiapbem restart' takes back this phase's orders")
            else:
                click.echo(f"{s.power}: {name} {_describe(action)} accepted ({n} order{'s' if n != 1 else ''} so far in "
                           "this phase; 'eiapbem end-phase' sends them)")
            for line in (peace_terms_words(action, s.power) + cede_words(s.state, _ctx(s), action, s.power)
                         + call_words(s.state, action, s.power)):
                click.echo(line)
        for line in skip_words(s.state, action, s.power):
            click.echo(line)
        from eiapbem.client.status import answer_hint, to_do, with_power

        left = to_do(s.current(), s.power, _ctx(s)) if s.state.slot and s.power in s.state.slot.actors else ()
        if left:
            ask = answer_hint(s.current().pending.values(), [s.power])
            click.echo(f"still to do: {ask or with_power(left[0], s.power, [r for r in s.local if r != 'host'])}")

    cmd = click.Command(name, callback=callback, params=params, help=help_text, short_help=short)
    return game_options(cmd)


#: The land orders that begin the combats: the first of them ends the power's movement and supplies its corps (11.0,
#: 000:1606; an assault attempt and a garrison's attack too, ``rules.land.sieging``).
COMBATS = ("land.attack", "land.assault", "land.garrison-attack")


def supply_first(s: Any, action: Any, yes: bool) -> None:
    """Say what the first attack's end of movement does to each corps before any die (10.5, 11.0), and ask first
    when a corps would forage at a risk a depot placed now would spare it (10.3, 000:1488)."""
    from eiapbem.client.status import supply_before_combat
    from eiapbem.core.errors import EiaError

    try:
        now, ctx = s.current(), _ctx(s)
        engine.verify_action(now, s.power, action, ctx)
        lines, choice = supply_before_combat(now, s.power, ctx)
    except EiaError:
        return  # the attack itself is refused: ``Session.act`` says why in the rules' words
    for line in lines:
        click.echo(line)
    if choice and not yes:
        confirm_or_refuse("Attack now, as above?" if action.KIND == "land.attack" else "Go ahead now, as above?",
                          "nothing done: the first combat ends the movement (11.0), and a corps would forage that a depot "
                          "placed first could supply (10.5) or stay aboard to be destroyed (8.6.3)",
                          "place the depot ('eiapbem land create-depot --area AREA') or land the corps first, or run the "
                          "order again with --yes")


def refuse_unpaid(s: Any, name: str, action: Any) -> None:
    """A purchase the phase's projection cannot pay is refused, nothing taken (12.5), in the view's sentence
    (``client.documents.refuse_unpaid``): the player gives it anyway with ``--even-if-short`` when an ally's loan is
    to pay for it."""
    from eiapbem.client import documents

    described = _describe(action)

    def fits(n: int) -> str:
        less = re.sub(r"--count \d+", f"--count {n}", described)
        return f"'eiapbem economy {name} {less}'"

    documents.refuse_unpaid(s, action, f"{name} {described}", projection="'eiapbem economy summary'",
                            anyway="give it with --even-if-short", fits=fits)


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


def call_words(state: Any, action: Any, power: str) -> list[str]:
    """What a call to allies or an answer to calls does not do now (6.3, 000:640): it acts on a war declared in
    a diplomacy phase, so a war that began earlier is not one it answers, an ally already at war with the enemy is
    not called, and only a power allied when the war comes is called or answered (``diplomacy.war.call_allies``).
    The order is still taken: it stands for a later war."""
    from eiapbem.core.powers import POWER_NAMES
    from eiapbem.rules import relations

    kind = getattr(action, "KIND", "")
    if kind not in ("diplomacy.call-allies", "diplomacy.answer-calls") or not action.ally:
        return []
    enemy = action.enemy
    out = []
    at_war = [power] if kind == "diplomacy.call-allies" else list(action.ally)
    for p in at_war:
        war = relations.war_with(state, p, enemy)
        if war is not None and war.since < state.date:
            out.append(f"this does nothing for the war of {POWER_NAMES[p]} with {POWER_NAMES[enemy]}, which began in "
                       f"{war.since.name}: allies are called only into a war declared in a diplomacy phase (6.3); the "
                       "order stands for a later war")
    if kind == "diplomacy.call-allies":
        for q in action.ally:
            if relations.war_with(state, q, enemy) is not None:
                out.append(f"{POWER_NAMES[q]} is already at war with {POWER_NAMES[enemy]}: a call does nothing there (6.3)")
    allies = state.powers[power].alliances
    for q in action.ally:
        if q not in allies and q != power:
            who = (f"{POWER_NAMES[q]} is not {POWER_NAMES[power]}'s ally now: it is called only if an alliance stands"
                   if kind == "diplomacy.call-allies" else
                   f"{POWER_NAMES[q]} is not {POWER_NAMES[power]}'s ally now: its call is answered only if an alliance "
                   "stands")
            out.append(f"{who} when the war comes (6.3, 6.5); the order stands for then")
    return out


def skip_words(state: Any, action: Any, power: str) -> list[str]:
    """A skip setting given in a month a power has had war declared on it: 13.9.1 (000:2738) cancels every setting
    of that power, and the month's end of each slot cancels it again, so it holds only from next month."""
    from eiapbem.client.status import skips_cancelled

    if getattr(action, "KIND", "") != "skip.set" or action.mode == "off":
        return []
    if skips_cancelled(state.replace(powers=state.powers.set(power, state.powers[power].replace(
            skips=type(state.powers[power].skips)()))), power) is None:
        return []
    return [f"this does nothing this month: a declaration of war on {power} this month cancels every skip setting "
            "(13.9.1), this one too when the slot ends; give it again in a file of next month"]


def cede_words(state: Any, ctx: Any, action: Any, power: str) -> list[str]:
    """The provinces and minor countries a victor's terms name (``--cede``) that could not be ceded as things
    stand, each with why (B.6, C.4, 6.4.3): the peace then passes over them. The order is still taken when another
    named one qualifies, since the map may change before the enemy sues (with none, ``terms.verify_cessions``
    refuses it)."""
    from eiapbem.core.powers import POWER_NAMES
    from eiapbem.rules.diplomacy.terms import cession_refused

    enemy = getattr(action, "enemy", None)
    if getattr(action, "KIND", "") != "diplomacy.surrender-terms" or enemy not in POWER_NAMES:
        return []
    out = []
    for slug in getattr(action, "cede", ()) or ():
        why = cession_refused(state, ctx, power, enemy, slug)
        if why:
            out.append(f"  as things stand {slug} would not be ceded: {why} (B.6, C.4); the peace passes over it "
                       "for another named")
    return out


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
