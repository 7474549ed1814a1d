"""Read-only commands answered from the status record (``client/statusfile.py``) when it is current.

A fresh process that opens the game spends most of its time importing the rules and decoding the state; a
read-only command's answer depends only on the folder's files.  So the answers a player asks for (``show``
in its forms, ``map --json``, ``economy summary``, ``battle report``) are made when the status record is
made, by the commands themselves, and kept in the record:

- ``precompute(s)`` runs each command line of ``command_lines(s)`` through the ordinary click command, in
  this process, against the session already open for the status (a sitting of the record's role:
  ``Context.identity`` and ``Context.session``), and keeps what it printed on stdout and stderr under the
  command's key (``answer_key``: the command's path and its parsed parameters but the game, power and
  password, which the record is of);
- ``read_only`` wraps such a command: in a fresh process (not a sitting), when the acting role's record is
  current (the folder's fingerprint, before the password is asked) and the password opens it, an answer
  kept under the command's key is printed as it was printed, and nothing else is loaded;
- a command whose arguments filter or name a unit (``show units --kind --area``, ``economy summary --only
  --seed``, ``show reach UNIT``) keeps records instead (``Kept``: plain data as its ``--json`` prints them, made by
  ``precompute`` too), and ``read_only`` prints any of its forms from them: a filter is a selection (a seed, of
  the phase's results: ``economy_cmd._kept``);
- ``map --svg FILE --save`` of the folder's own save writes the game's picture kept under its ``Kept`` name by
  ``precompute`` (``data_cmd._kept_picture``); and ``precompute`` keeps the bare map's picture in the folder when
  none of this version is kept (``mapcache.ensure``);
- any other case (no record, a stale one, a form the record does not hold such as a unit not kept) runs the
  command as before.

Every answer is what the command printed, or prints from the same records, for the same state, so the answer
does not depend on the way it was found (``tests/cli/test_answers.py`` compares both for every kind of line
made in advance and for the filters).
docs/decisions.md ("Read-only commands answer from the status record") gives the reasons.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
from pathlib import Path
from typing import Any, Callable, NamedTuple

import click

from .common import Context, home, root

#: Parameters that say who asks, not what: the record is the acting role's already.
_WHO = ("game", "power", "password")

#: While ``precompute`` runs: the answers it has made so far (key -> [stdout, stderr]); empty otherwise.
_RECORDING: list[dict[str, list[str]]] = []


def answer_key(ctx: click.Context) -> str:
    """A command's key in the record: its path under ``eiapbem`` and its parameters but who asks."""
    params = {k: (str(v) if isinstance(v, Path) else v) for k, v in ctx.params.items() if k not in _WHO}
    path, at = [], ctx
    while at.parent is not None:  # the names the command was called by (its groups take no arguments)
        path.append(at.info_name)
        at = at.parent
    return json.dumps([path[::-1], params], sort_keys=True, default=str)


def kept_record(game: str | None, power: str | None, password: str | None,
                prefer: str | None = None) -> tuple[dict | None, str | None]:
    """The acting role's status record (``statusfile.read``) when it is current and the password opens it, else
    None; and the password (asked for here when the record is there to open, so it is asked once).  ``prefer``:
    the power a command looks at, which acts when --power is not given and it is played here (``common.viewer``)."""
    from eiapbem.client import statusfile

    found = statusfile.locate(home(), game, power, prefer) if root().identity is None else None
    data = statusfile.current(home(), *found) if found else None
    if not (found and data):
        return None, password
    if password is None:
        password = click.prompt(f"Password for {found[1]}", hide_input=True)
    return statusfile.read(home(), *found, password, data), password


def read_only(viewed: str | None = None, opens: Callable[[dict], bool] | None = None,
              kept: Kept | None = None, role: str | None = None) -> Callable[[Any], Any]:
    """Decorate a read-only command (under its click decorators) so that it answers from the record when it can.

    ``viewed``: the name of the argument naming a power to look at (``show power FR``), which opens the game as
    that power when it is played here and --power is not given (``common.viewer``).  ``opens``: whether the
    command, given these arguments, opens the folder's game (default: always); the record is looked at only
    then, so a command that asks for no password does not ask for one.  ``kept``: the command's records kept
    in the status record, from which it answers any of its argument forms (``Kept``).  ``role``: the role whose record
    answers, when the command has no --power (``host`` for the admin menu's)."""
    if kept is not None:
        KEPT[kept.name] = kept

    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def command(*args: Any, **kwargs: Any) -> Any:
            key = answer_key(click.get_current_context())
            if _RECORDING:
                return _record(_RECORDING[-1], key, f, args, kwargs)
            obj = click.get_current_context().find_root().obj
            if (isinstance(obj, Context) and obj.identity is None and "password" in kwargs
                    and (opens is None or opens(kwargs))):  # not a sitting, and the game is to be opened
                which = kwargs.get(viewed) if viewed else None
                record, kwargs["password"] = kept_record(kwargs.get("game"), role or kwargs.get("power"), kwargs["password"],
                                                       which.upper() if isinstance(which, str) else None)
                answer = (record or {}).get("answers", {}).get(key)
                if answer is None and record is not None and kept is not None:
                    answer = _derived(kept, record, kwargs)
                if answer is not None:
                    click.echo(answer[0], nl=False)
                    if answer[1]:
                        click.echo(answer[1], nl=False, err=True)
                    return None
            return f(*args, **kwargs)

        return command

    return wrap


class Kept(NamedTuple):
    """A read-only command whose every argument form answers from records kept in the status record: ``make``
    makes them from the open session (plain data, as ``--json`` prints it) when the record is made, under ``name``;
    ``answer`` prints a form from them (``(stdout, stderr)``, or None when they do not say: the command then opens
    the game).  Filters are selections on the records, so no form has to be made in advance."""

    name: str
    make: Callable[[Any], Any]
    answer: Callable[[Any, dict], tuple[str, str] | None]


#: The commands answered from their kept records, by ``Kept.name`` (filled as their modules are loaded).
KEPT: dict[str, Kept] = {}


def _derived(kept: Kept, record: dict, kwargs: dict) -> list[str] | None:
    """A form of ``kept``'s command answered from its records in ``record``; None when they do not say.  The record
    is sealed and current, yet a form its records cannot answer (a record of another version, an argument outside
    them) opens the game rather than answer wrong."""
    data = record.get("data", {}).get(kept.name)
    if data is None:
        return None
    try:
        out = kept.answer(data, kwargs)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None
    return None if out is None else [out[0], out[1]]


def plain(obj: Any) -> Any:
    """``obj`` as the record keeps it: what ``--json`` prints, read back (``common.echo_json``'s conversions)."""
    from .common import json_value

    return json.loads(json.dumps(obj, default=json_value))


def as_json(obj: Any) -> str:
    """What ``common.echo_json`` prints for ``obj`` (a record's plain data)."""
    return json.dumps(obj, indent=2, sort_keys=True) + "\n"


def _record(into: dict[str, list[str]], key: str, f: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rv = f(*args, **kwargs)
    if rv in (None, 0):
        into[key] = [out.getvalue(), err.getvalue()]
    return rv


def command_lines(s: Any) -> list[list[str]]:
    """The read-only command lines answered in advance for the session's role: each form a player asks for
    without filters, as text and as ``--json``."""
    from eiapbem.core.powers import POWERS

    from .common import rules_ctx

    st, m = s.current(), rules_ctx(s).map
    places = sorted(m.areas) + sorted(m.seas) + sorted(f"box:{a}" for a, v in m.areas.items() if v.port is not None)
    units = sorted(st.units) + sorted(st.leaders)
    lines: list[list[str]] = [["show", "area", a] for a in places] + [["show", "unit", u] for u in units]
    for what in ("power", "pool"):
        lines += [["show", what]] + [["show", what, p] for p in POWERS]
    lines += [["show", "history"]]
    lines += [["battle", "report"]] + [["battle", "report", b] for b in _battle_ids(s)]
    out = [line + ["--json"] for line in lines] + lines
    if s.me.role == "host":  # the admin menu's read-only commands (``admin status``: kept records, ``STATUS``)
        out += [["admin", "saves"]]
    return out + [["map", "--json"]]


def _battle_ids(s: Any) -> list[str]:
    from eiapbem.client import documents

    return [str(b["id"]) for b in documents.battles(s)]


class _Steady:
    """The open session as the read-only commands see it while their answers are made: its state now and its slot's
    dice are found once (``Session.current`` replays the slot's actions each time; nothing changes them meanwhile)."""

    def __init__(self, s: Any) -> None:
        self._s = s
        self._now: dict[str, Any] = {}

    def current(self) -> Any:
        if "state" not in self._now:
            self._now["state"] = self._s.current()
        return self._now["state"]

    def slot_dice(self) -> Any:
        if "dice" not in self._now:
            self._now["dice"] = self._s.slot_dice()
        return self._now["dice"]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._s, name)


def precompute(s: Any, cli: click.Group | None = None) -> dict[str, Any]:
    """What the record keeps for the read-only commands: ``answers``, those of ``command_lines(s)`` (key ->
    [stdout, stderr]), each made by its command (of ``cli``, the ``eiapbem`` group; default: that of the command
    being run) against ``s``, and ``data``, the records of the commands answered from records (``KEPT``: their
    name -> records).  A line its command refuses (an error), or
    records that cannot be made, are not kept, and asking again runs the command."""
    if cli is None:
        found = click.get_current_context().find_root().command
        assert isinstance(found, click.Group)
        cli = found
    obj = Context(s.home)
    obj.identity = (s.game, s.me.role, s.me)
    obj.session = s = _Steady(s)
    made: dict[str, list[str]] = {}
    root = click.Context(cli, info_name="eiapbem", obj=obj)
    groups: dict[tuple[str, ...], tuple[click.Command, click.Context]] = {(): (cli, root)}
    shapes: dict[tuple, tuple[dict, click.Parameter]] = {}
    _RECORDING.append(made)
    try:
        with root:
            for line in command_lines(s):
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    try:
                        _invoke(groups, line, shapes)
                    except Exception:  # noqa: BLE001 - refused here, refused (and said) when asked
                        pass
        for name in _KEPT_IN:
            cli.get_command(root, name.split()[0])  # loads the command's module, which registers its ``Kept``
    finally:
        _RECORDING.pop()
    data: dict[str, Any] = {}
    for name, kept in sorted(KEPT.items()):
        try:
            data[name] = plain(kept.make(s))
        except Exception:  # noqa: BLE001 - not kept: asking runs the command, which says what is wrong
            pass
    from . import mapcache

    try:
        mapcache.ensure(s.home)  # the bare map's picture, drawn once a folder and version
    except Exception:  # noqa: BLE001 - not kept: 'map --svg' draws it, and says what is wrong
        pass
    return {"answers": made, "data": data}


#: The commands answered from kept records (``Kept.name``), whose modules ``precompute`` loads.
_KEPT_IN = ("show units", "show reach", "economy summary", "admin status", "map")


def _invoke(groups: dict[tuple[str, ...], tuple[click.Command, click.Context]], line: list[str],
            shapes: dict[tuple, tuple[dict, click.Parameter]]) -> None:
    """Run one command line as ``eiapbem LINE`` would (its groups' contexts made once and kept in ``groups``: the
    groups take no options, so only the command's own arguments are parsed for each line).

    The lines come in a few shapes (``show area AREA --json`` for every area): a line of one argument and flags
    is parsed by click once per shape, kept in ``shapes``, and the next lines of that shape take its parameters
    with their own argument (converted and checked by its parameter, as click parsing it does)."""
    path: tuple[str, ...] = ()
    cmd, ctx = groups[path]
    args = list(line)
    while isinstance(cmd, click.Group):
        name, sub, args = cmd.resolve_command(ctx, args)
        assert name is not None and sub is not None
        path += (name,)
        if isinstance(sub, click.Group):
            if path not in groups:
                groups[path] = (sub, click.Context(sub, info_name=name, parent=ctx))
            cmd, ctx = groups[path]
            continue
        values = [a for a in args if not a.startswith("-")]
        shape = (path, tuple(a for a in args if a.startswith("-"))) if len(values) == 1 else None
        if shape is not None and shape in shapes:
            params, arg = shapes[shape]
            with click.Context(sub, info_name=name, parent=ctx) as leaf:
                leaf.params = {**params, str(arg.name): arg.process_value(leaf, values[0])}
                sub.invoke(leaf)
            return
        with sub.make_context(name, args, parent=ctx) as leaf:
            arguments = [q for q in sub.params if isinstance(q, click.Argument)]
            if shape is not None and len(arguments) == 1 and leaf.params.get(str(arguments[0].name)) is not None:
                shapes[shape] = (dict(leaf.params), arguments[0])
            sub.invoke(leaf)
        return
