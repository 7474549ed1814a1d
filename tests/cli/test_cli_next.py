"""Every command a 'Next:' line suggests is accepted as written, in the state it is suggested in: a game is driven
through its phases by the command line, following its own Next lines (issue 32 item 4)."""

from __future__ import annotations

import re
import shutil

import pytest

from clikit import cli, new_game

from eiapbem.client.session import Session

#: A command quoted in a hint: 'eiapbem WORDS'.
QUOTED = re.compile(r"'eiapbem ([^']+)'")
#: The options of a question: "with CHOICE one of a, b, c".
CHOICES = re.compile(r"with CHOICE one of ([\w, -]+?)(?:;|\(| \(|$)")


def _next_line(output: str) -> str:
    lines = [ln for ln in output.splitlines() if ln.startswith("Next: ")]
    assert len(lines) == 1, output
    return lines[0][len("Next: "):]


def _placeholder(w: str) -> bool:
    return w.isupper() and len(w) > 2


def _commands(home, line: str, power: str) -> list[list[str]]:
    """The commands a Next line quotes, with its placeholders as a player fills them in: POWER the power to play,
    CHOICE the first choice offered, any other (AREA, ...) from an action the rules accept now of the command's kind
    with the fields given (``engine.legal_actions``)."""
    choice = CHOICES.search(line)
    out = []
    for text in QUOTED.findall(line):
        words = text.split()
        words = [power if w == "POWER" else (choice.group(1).split(", ")[0].strip() if w == "CHOICE" and choice else w)
                 for w in words]
        if any(_placeholder(w) for w in words):
            words = _from_legal(home, power, words)
        out.append(words)
    return out


def _from_legal(home, power: str, words: list[str]) -> list[str]:
    """``words`` ('land disembark --corps C --area AREA') with each placeholder taken from the first legal action of
    that command whose other fields are as written: there must be one."""
    import dataclasses

    from eiapbem.cli.actions_cmd import GROUPS
    from eiapbem.data.context import rules_context
    from eiapbem.rules import engine

    s = Session.open(home, "Cli", power, f"pw-{power}")
    state = s.current()
    kinds = [k for k, spec in engine.action_kinds().items() if GROUPS[spec.phases[0]] == words[0]
             and getattr(spec.cls, "COMMAND", k.split(".")[-1]) == words[1]]
    assert kinds, words
    given = {words[i][2:].replace("-", "_"): words[i + 1] for i in range(2, len(words) - 1) if words[i].startswith("--")}
    legal = [a for a in engine.legal_actions(state, power, rules_context(s.slot_dice()), kinds=kinds)
             if all(_placeholder(v) or str(getattr(a, k, v)) == v for k, v in given.items())]
    assert legal, (words, "no action the rules accept now matches the hint")
    fields = {f.name: getattr(legal[0], f.name) for f in dataclasses.fields(legal[0])}
    return [str(fields[words[i - 1][2:].replace("-", "_")]) if _placeholder(w) else w for i, w in enumerate(words)]


def drive(home, until: str, seen: dict[str, int]) -> None:
    """Follow the Next lines of a hot-seat folder until the slot key starts with ``until``: each suggested command is
    run as written (the help, the skip settings and the seal of next month's diplomacy in a copy of the folder, the
    others in the game) and must be accepted. ``seen`` counts the suggestions run, by command."""
    for _ in range(400):
        st = Session.open(home, "Cli", "RU", "pw-RU").state
        key = st.slot.key(st.date)
        if key.startswith(until):
            return
        power = st.slot.power or next(p for p in st.slot.actors if p not in _sent(home, st))
        r = cli(home, "status", "--power", power, "--password", f"pw-{power}")
        assert r.exit_code == 0, (key, r.output, r.exception)
        line = _next_line(r.output)
        commands = _commands(home, line, power)
        assert commands, (key, line)
        if " to play: first " in line:  # a to-do before end-phase: do it, then read the status again
            commands = commands[:1]
        for words in commands:
            name = " ".join(w for w in words[:2] if not w.startswith("-"))
            seen[name] = seen.get(name, 0) + 1
            side = "--help" in words or words[0] == "skip" or "--seal-diplomacy" in words  # the alternatives
            where = home.parent / "side" if side else home
            if side:
                shutil.rmtree(where, ignore_errors=True)
                shutil.copytree(home, where)
            extra = [] if "--help" in words else (["--password", f"pw-{power}"]
                                                   + ([] if "--power" in words else ["--power", power]))
            r = cli(where, *words, *extra, input="y\n")  # a question asked at the terminal is answered yes
            assert r.exit_code == 0, (key, line, words, r.output, r.exception, getattr(r.exception, "hint", None))
    raise AssertionError(f"{until} not reached")


def _sent(home, st) -> set[str]:
    """The powers of a simultaneous slot whose orders are sent already."""
    return {p for p in st.slot.actors if Session.open(home, "Cli", p, f"pw-{p}").orders_sent() is not None}


def test_the_next_lines_of_the_setup_and_the_diplomacy_are_accepted_as_written(tmp_path):
    home = new_game(tmp_path / "game")
    seen: dict[str, int] = {}
    drive(home, "1805-01/naval", seen)  # the reinforcement slots, nothing due, are skipped (13.9, the fast pace)
    assert seen["setup load"] == 7 and seen["end-phase"] >= 7 + 14 and seen["diplomacy"] == 7, seen


@pytest.mark.slow
def test_the_next_lines_of_a_whole_month_are_accepted_as_written(tmp_path):
    home = new_game(tmp_path / "game")
    seen: dict[str, int] = {}
    drive(home, "1805-02/", seen)
    assert seen["end-phase"] >= 7 * 5 and "skip" in seen, seen


def test_the_next_lines_of_a_land_slot_with_a_corps_at_sea_and_a_battle_are_accepted_as_written(tmp_path):
    # The to-dos come first in the Next line (end-phase is refused or asks before them): a corps aboard to land,
    # the attack the rules require (11.1), the battle's questions; then end-phase.
    from test_cli_roughedges import _aboard, _at_nancy, _set_state

    home = new_game(tmp_path / "game")
    _set_state(home, lambda s: _aboard(_at_nancy(s)))
    seen: dict[str, int] = {}
    drive(home, "1805-10/land/turn/RU", seen)
    assert {"land disembark", "land attack", "answer", "end-phase"} <= set(seen), seen
