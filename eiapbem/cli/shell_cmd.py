"""``eiapbem shell``: one sitting of one power, its key unlocked once (issue 15 item 5).

The shell asks for the power's password once, unlocks its key file (one
scrypt), and then reads command lines: each is an ordinary ``eiapbem``
command (``status``, ``show units``, ``land move …``, ``end-phase``), run by
the same click commands as from the terminal, with the unlocked key instead
of a password (``common.open_session``).  Tab completes command names, the
options of a command, area names and the game's unit and leader ids.

The key stays in this process's memory until the shell ends (``quit``, an end
of input, Ctrl-D); nothing unlocked is written anywhere, so the key file at
rest is exactly as strong as before.  The trade-off is in docs/SECURITY.md.
"""

from __future__ import annotations

import cmd
import shlex
from typing import Any

import click

from .common import Context, acting_power, home

#: Commands that make no sense inside a sitting.
_REFUSED = {"shell": "you are in a shell already", "demo": "run the demo from the terminal"}


class Sitting(cmd.Cmd):
    """The command loop: a line is an ``eiapbem`` command line without the leading ``eiapbem``."""

    def __init__(self, ctx_obj: Context, game: str, power: str, stdin: Any = None, stdout: Any = None) -> None:
        super().__init__(stdin=stdin, stdout=stdout)
        self.obj = ctx_obj
        self.game = game
        self.power = power
        self.prompt = f"eiapbem {game} {power}> "
        self.intro = (f"A sitting for {power} in {game}: type eiapbem commands without 'eiapbem' "
                      "(status, show units, help, quit); Tab completes.")
        self.last_code = 0
        self._words: list[str] | None = None

    # ----------------------------------------------------------- running a line

    def emptyline(self) -> bool:
        return False

    def default(self, line: str) -> bool:  # type: ignore[override]  # cmd.Cmd.onecmd returns it: True ends the loop
        from .main import run

        try:
            words = shlex.split(line)
        except ValueError as err:
            click.echo(f"eiapbem: error: {err}; close the quote", err=True)
            return False
        if words[:1] == ["eiapbem"]:  # typed as the README writes it: the same command
            words = words[1:]
        if not words:
            return False
        if words[0] in _REFUSED:
            click.echo(f"eiapbem: error: {_REFUSED[words[0]]}", err=True)
            return False
        if "--home" in words:
            click.echo("eiapbem: error: a sitting keeps its --home; leave the shell to use another folder", err=True)
            return False
        self.last_code = run(words, obj=self.obj)
        return False

    def do_help(self, arg: str) -> bool:  # type: ignore[override]
        """help [COMMAND]: what a command takes (same as COMMAND --help)."""
        self.default((arg + " --help") if arg else "--help")
        return False

    def do_quit(self, arg: str) -> bool:
        """quit: end the sitting (the key is forgotten)."""
        return True

    do_exit = do_quit

    def do_EOF(self, arg: str) -> bool:  # noqa: N802 - cmd's name for the end of input
        click.echo("")
        return True

    # ----------------------------------------------------------- completion

    def completenames(self, text: str, *ignored: Any) -> list[str]:
        from .main import index

        idx = index()
        names = sorted(idx["commands"]) if idx else []
        return [n + " " for n in names + ["quit", "help"] if n.startswith(text)]

    def completedefault(self, text: str, line: str, begidx: int, endidx: int) -> list[str]:
        return [w + " " for w in complete(line[:begidx], text, self.words)]

    @property
    def words(self) -> list[str]:
        """Area names and the game's unit and leader ids (read once per sitting)."""
        if self._words is None:
            self._words = game_words(self.obj, self.game)
        return self._words


def complete(before: str, text: str, words: list[str]) -> list[str]:
    """Candidates for ``text`` after the words ``before``: subcommands, options, or areas and ids."""
    from .main import index

    idx = index() or {"help": {}}
    done = before.split()
    paths = [k.split(" ") for k in idx["help"] if k]
    if not any(w.startswith("-") for w in done):
        subs = sorted({p[len(done)] for p in paths if len(p) > len(done) and p[:len(done)] == done})
        if subs:
            return [s for s in subs if s.startswith(text)]
    if text.startswith("-"):
        path: list[str] = []
        for w in done:
            if " ".join([*path, w]) not in idx["help"]:
                break
            path.append(w)
        page = idx["help"].get(" ".join(path), "")
        opts = sorted({w.rstrip(",").split("=")[0] for w in page.split() if w.startswith("--")})
        return [o for o in opts if o.startswith(text)]
    return [w for w in words if w.startswith(text)]


def game_words(obj: Context, game: str) -> list[str]:
    from eiapbem.client import session
    from eiapbem.data.context import rules_context

    assert obj.identity is not None
    s = session.Session.open_with(obj.home, game, obj.identity[2])
    st = s.state
    areas = sorted(rules_context(s.slot_dice()).map.areas)
    return areas + sorted(st.units) + sorted(st.leaders)


def register(cli: click.Group) -> None:
    @cli.command("shell")
    @click.option("--game", help="The game's name, when this folder holds several.")
    @click.option("--power", help="The power of the sitting, when this folder plays several (or host).")
    @click.option("--password", envvar="EIAPBEM_PASSWORD", help="The power's password (asked for once when missing).")
    def shell(game: str | None, power: str | None, password: str | None) -> int:
        """An interactive sitting for one power: the password once, then any eiapbem commands, with Tab completion."""
        from eiapbem.client import session

        h = home()
        name = session.find_game(h, game)
        power = acting_power(h, name, power, "sits")
        power = power if power == "host" else power.upper()
        if password is None:
            password = click.prompt(f"Password for {power}", hide_input=True)
        ident = session.open_identity(h, name, power, password)
        session.Session.open_with(h, name, ident)  # the save opens with this key: refused here, not at the first command
        obj = Context(h)
        obj.identity = (name, power, ident)
        sitting = Sitting(obj, name, power)
        try:
            import readline  # line editing and Tab completion where the platform has it
        except ImportError:
            pass
        else:
            readline.set_completer_delims(" \t\n")  # ids hold ':' and '-': complete whole words
        sitting.cmdloop()
        return sitting.last_code
