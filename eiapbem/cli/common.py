"""What every command module shares: the home folder, opening a game, passwords, the phase groups.

Light on purpose: it imports only click and the core layer at import time, so
a command module that uses it loads quickly; the client layer is imported
when a game is actually opened.

Inside ``eiapbem shell`` (``cli/shell_cmd.py``) the root context carries the
identity unlocked once for the sitting (``Context.identity``); ``open_session``
uses it instead of asking for the password again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from eiapbem.core.errors import EiaError, IllegalAction
from eiapbem.core.powers import POWERS


class Context:
    """What every command gets: the home folder holding the game folders, and a sitting's open key."""

    def __init__(self, home: Path) -> None:
        self.home = home
        #: ``(game, role, keys.Identity)`` unlocked once by ``eiapbem shell``; None outside a shell.
        self.identity: tuple[str, str, Any] | None = None
        #: That identity's game already open (``client.session.Session``), which read-only commands use as it is
        #: while their answers are made in advance (``cli/answers.py``); None otherwise.
        self.session: Any = None


class BadOption(EiaError):
    """A command-line value a command cannot use."""


def root() -> Context:
    return click.get_current_context().find_root().obj


def home() -> Path:
    """The --home folder of the command being run."""
    return root().home


def in_home(path: Path) -> Path:
    """A relative path that is not found here is looked for in the --home folder."""
    if path.is_absolute() or path.exists():
        return path
    return home() / path


def read_password(password_file: Path | None, prompt: str, confirm: bool) -> str:
    """A password from a one-line file, else asked for (hidden)."""
    if password_file is not None:
        from eiapbem.pbem.folders import read_limited

        text = read_limited(password_file, 4096).decode("utf-8", errors="strict")
        pw = text[:-1] if text.endswith("\n") else text
        pw = pw[:-1] if pw.endswith("\r") else pw
        if not pw or "\n" in pw:
            raise BadOption(f"{password_file.name} must hold the password on one line, and nothing else")
        return pw
    return click.prompt(prompt, hide_input=True, confirmation_prompt=confirm)


def _opts() -> list[click.Option]:
    return [
        click.Option(["--game"], help="The game's name, when this folder holds several."),
        click.Option(["--power"], type=click.Choice(list(POWERS) + ["host"]),
                     help="Who acts, when this folder plays several powers (hot-seat)."),
        click.Option(["--password"], envvar="EIAPBEM_PASSWORD", help="The acting power's password (asked for when missing; or the EIAPBEM_PASSWORD environment variable)."),
    ]


def game_options(f: Any) -> Any:
    """Add --game, --power and --password to a command (a function or a click.Command)."""
    if isinstance(f, click.Command):
        f.params.extend(_opts())
        return f
    params = getattr(f, "__click_params__", [])
    params.extend(reversed(_opts()))
    f.__click_params__ = params
    return f


def json_option(f: Any) -> Any:
    """Add ``--json``: the command prints one JSON document (docs/json.md) instead of text."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for machines (schema: docs/json.md).")(f)


def echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=2, sort_keys=True, default=json_value))


def json_value(v: Any) -> Any:
    """A value ``echo_json`` meets that JSON has no form for: bytes as hex, an enum as its value, else its text."""
    if isinstance(v, bytes):
        return v.hex()
    if hasattr(v, "value"):  # an enum
        return v.value
    return str(v)


def acting_power(h: Path, name: str, power: str | None, verb: str) -> str:
    """The power named, else the one power this folder plays, else the host; refused when the folder plays several."""
    from eiapbem.client import session

    if power is not None:
        return power
    local = [r for r in session.local_roles(h, name) if r != "host"]
    if len(local) == 1:
        return local[0]
    if not local:
        return "host"
    raise session.NoGame(f"this folder plays {', '.join(local)}; say which power {verb} with --power")


#: The games the command being run opened, as ``(home, game, identity, record key)``: when a fresh process
#: ends, ``cli.main.main`` brings their status records up to date (``client/statusfile.py``).
OPENED: list[tuple[Path, str, Any, Any]] = []


def unlock(game: str | None, power: str | None, password: str | None) -> tuple[Path, str, Any, Any]:
    """The home folder, the game, the acting power's unlocked keys (``pbem.keys.Identity``) and what seals its
    status record (``statusfile.RecordKey``; None in a sitting), without opening the save; asks for the password
    when missing."""
    from eiapbem.client import session

    h = home()
    name = session.find_game(h, game)
    sitting = root().identity
    if sitting is not None and power in (None, sitting[1]) and name == sitting[0]:
        return h, name, sitting[2], None
    power = acting_power(h, name, power, "acts")
    local = session.local_roles(h, name)
    if power not in local:  # said before the password is asked, not after
        plays = ", ".join(local) or "no power"
        raise session.NoGame(f"{power} is not played from this folder (it plays {plays})",
                     hint=f"--power takes one of {plays}; 'eiapbem show power {power}' or 'eiapbem show units {power}' "
                          "look at another power" if local else None)
    if password is None:
        password = click.prompt(f"Password for {power}", hide_input=True)
    from eiapbem.client.statusfile import record_key

    me, file_key, stanza = session.open_identity_keyed(h, name, power, password)
    return h, name, me, record_key(stanza, file_key)


def keep_record(h: Path, name: str, role: str, password: str) -> None:
    """After ``new`` or ``join`` (which make the folder's save): the role's status record is written as the command
    ends (``cli.main.keep_status``), so the first ``status`` of a new folder answers from it.  One more scrypt of the
    role's key file; a key that does not open only leaves the record unwritten."""
    from eiapbem.client import session
    from eiapbem.client.statusfile import record_key
    from eiapbem.core.errors import EiaError

    try:
        me, file_key, stanza = session.open_identity_keyed(h, name, role, password)
    except (EiaError, OSError):
        return
    OPENED.append((h, name, me, record_key(stanza, file_key)))


def open_session(game: str | None, power: str | None, password: str | None) -> Any:
    """The acting power's open game (``client.session.Session``); asks for the password when missing."""
    from eiapbem.client import session

    obj = root()
    if obj.session is not None and obj.identity is not None and game in (None, obj.identity[0]) \
            and power in (None, obj.identity[1]):
        return obj.session  # the answers made in advance (``cli/answers.py``): its game is open, and no other
    h, name, me, key = unlock(game, power, password)
    if key is not None:
        OPENED.append((h, name, me, key))
    elif root().session is not None:  # the sitting's game open already (it is the game unlock found)
        return root().session
    return session.Session.open_with(h, name, me)


def viewer(game: str | None, power: str | None, which: str | None) -> str | None:
    """Who opens the game to look at ``which``: --power if given, else ``which`` itself when it is played here."""
    if power is not None or not which:
        return power
    sitting = root().identity
    if sitting is not None:
        return None
    from eiapbem.client import session

    h = home()
    name = session.find_game(h, game)
    return which.upper() if which.upper() in session.local_roles(h, name) else None


def open_save(save_file: Path, power: str | None, password: str | None) -> Any:
    """Open the game of a save file ``…/save/GameName.sav`` (its folder is the game folder), or a monthly save
    ``…/save/GameName_monthly_1805-03.sav`` read only (``client.history``)."""
    from eiapbem.core.errors import BadData

    from eiapbem.client import history

    save_file = in_home(save_file)
    if save_file.suffix != ".sav" or save_file.parent.name != "save" or not save_file.is_file():
        raise BadData(f"{save_file} is not a game's save; give save/GameName.sav inside a game folder")
    folder = save_file.parent.parent
    if root().identity is not None and folder.resolve() != home().resolve():
        raise BadOption(f"{save_file} is another folder's game; a sitting ('eiapbem shell') opens only its own folder's")
    root().home = folder
    monthly = history.split_name(save_file)
    if monthly is not None:  # a monthly save (000:216): the game as it was, read only
        return history.open_month(open_session(monthly[0], power, password), monthly[1])
    return open_session(save_file.stem, power, password)


def confirm_or_refuse(question: str, refusal: str, hint: str) -> None:
    """Ask ``question`` (default no); a no, or no terminal to answer, refuses with ``refusal`` and ``hint``, nothing done."""
    try:
        go = click.confirm(question, default=False)
    except click.Abort:
        go = False
    if not go:
        raise IllegalAction(refusal, hint=hint)


def rules_ctx(s: Any) -> Any:
    """The rules context of a session's slot (map, tables, the slot's dice)."""
    from eiapbem.data.context import rules_context

    return rules_context(s.slot_dice())


def place_name(text: str) -> str:
    """A place as typed by a person in the map's spelling (``core.places.place_name``)."""
    from eiapbem.core.places import place_name as spelled

    return spelled(text)


#: Phase (its value) -> the click group of its commands, and the group's help.
PHASE_GROUPS = {
    "setup": ("setup", "The setup phase (5.1-5.3): place your forces (manual: Setup Phase)."),
    "diplomacy": ("diplomacy", "The diplomacy phase (6.0): war, peace, alliances, trade, access (manual: "
                  "Diplomatic Reactions Screen, Victory Conditions Screen). Your standing orders of those two "
                  "screens (calls, answers, alliance requests, minors, surrender terms) are kept in your own "
                  "save, not in the shared game, and go out sealed with your orders every month; trade and "
                  "access stand in the shared game."),
    "reinforcement": ("reinforce", "The reinforcement phase (7.0)."),
    "naval": ("naval", "The naval phase (8.0)."),
    "land": ("land", "The land phase (10.0)."),
    "economic": ("economy", "The economic phase (12.0)."),
}


def phase_group(cli: click.Group, phase: Any) -> click.Group:
    """The click group of a phase (``Phase`` or its value), made on first use."""
    name, help_ = PHASE_GROUPS[getattr(phase, "value", phase)]
    group = cli.commands.get(name)
    if group is None:
        group = click.Group(name, help=help_)
        cli.add_command(group)
    assert isinstance(group, click.Group)
    return group
