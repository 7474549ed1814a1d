"""Asking for a password (issue 20 item 5).

With a terminal, click asks through ``getpass`` (nothing echoed).  Without one
(a pipe, a script, cron), ``getpass`` would print Python's ``GetPassWarning``
text; here the password is read from standard input as a line instead, and a
missing one (end of input) is one sentence saying how to give it.
"""

from __future__ import annotations

import sys

import click
import click.termui

from eiapbem.core.errors import EiaError


class NoPassword(EiaError):
    """A password is needed and there is neither an option nor a terminal to ask on."""


def hidden_prompt(prompt: str) -> str:
    stdin = sys.stdin
    if stdin is not None and stdin.isatty():
        import getpass

        return getpass.getpass(prompt)
    sys.stderr.write(prompt)
    sys.stderr.flush()
    line = stdin.readline() if stdin is not None else ""
    if not line:
        sys.stderr.write("\n")
        raise NoPassword("a password is needed and there is no terminal to ask for it",
                         hint="give it with --password or the EIAPBEM_PASSWORD environment variable")
    return line.rstrip("\r\n")


def install() -> None:
    """Make every ``click.prompt(..., hide_input=True)`` of the CLI use ``hidden_prompt``."""
    click.termui.hidden_prompt_func = hidden_prompt


def ask_password(text: str) -> str:
    return click.prompt(text, hide_input=True)
