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
        raise NoPassword("a password is needed and there is no terminal to ask for it", hint=_where(prompt))
    return line.rstrip("\r\n")


#: Where each prompted secret can be given instead (the prompt's opening words, the option, its variable), first
#: match wins; a power's own password otherwise.
_SOURCES = (
    ("one-time password", "--one-time-password", "EIAPBEM_ONE_TIME_PASSWORD"),
    ("mail password", "", "EIAPBEM_MAIL_PASSWORD"),
    ("password for the host's key", "--host-password", "EIAPBEM_HOST_PASSWORD"),
    ("your new host password", "--host-password", "EIAPBEM_HOST_PASSWORD"),
    ("password for the host", "--password", "EIAPBEM_HOST_PASSWORD"),
)


def _where(prompt: str) -> str:
    """The hint for a secret the prompt ``prompt`` could not ask for: the option and variable that give it."""
    text = prompt.strip().lower()
    for start, option, variable in _SOURCES:
        if text.startswith(start):
            return f"give it with {option} or the {variable} environment variable" if option else \
                f"give it with the {variable} environment variable"
    return "give it with --password or the EIAPBEM_PASSWORD environment variable"


def install() -> None:
    """Make every ``click.prompt(..., hide_input=True)`` of the CLI use ``hidden_prompt``."""
    click.termui.hidden_prompt_func = hidden_prompt


def ask_password(text: str) -> str:
    return click.prompt(text, hide_input=True)
