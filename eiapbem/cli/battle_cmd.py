"""``eiapbem battle report [BATTLE-ID] [--json]``: the battles of the game in play (11, 9, 11.4).

Field and trivial land battles (``GameState.battles``), naval battles
(``GameState.naval_battles``) and sieges (``GameState.sieges``) are rendered by
their own reports (``rules/combat/report.py``, ``naval/battle.py``,
``combat/sieges.py``).  Without an id the battles are listed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from eiapbem.core.errors import IllegalAction


def battles_of(state: Any) -> dict[str, tuple[str, Any]]:
    """Every battle of a state by id: (what, record); what is land, naval or siege."""
    out: dict[str, tuple[str, Any]] = {}
    for bid, b in state.battles.items():
        out[bid] = ("land", b)
    for bid, b in state.naval_battles.items():
        out[bid] = ("naval", b)
    for bid, b in state.sieges.items():
        out[bid] = ("siege", b)
    return {k: out[k] for k in sorted(out)}


def finished(b: Any) -> bool:
    """Whether a battle is over: land battles say so, naval combats and sieges reach the step "done"."""
    return bool(getattr(b, "finished", False)) or getattr(b, "step", "") == "done"


def render(what: str, b: Any, as_json: bool) -> str:
    from eiapbem.rules.combat import report as land_report
    from eiapbem.rules.combat import sieges
    from eiapbem.rules.naval import battle as naval

    if what == "land":
        return json.dumps(land_report.report_records(b), indent=2, default=_plain) if as_json else land_report.report_text(b)
    mod = naval if what == "naval" else sieges
    return json.dumps(mod.report_record(b), indent=2, default=_plain) if as_json else mod.report_text(b)


def _plain(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.hex()
    raise TypeError(f"{type(v).__name__} is not JSON")


def _where(what: str, b: Any) -> str:
    for name in ("area", "city", "site", "sea", "location"):
        v = getattr(b, name, None)
        if v:
            return str(v)
    return "?"


def register(cli: click.Group) -> None:
    from .common import game_options, open_session

    @cli.group("battle")
    def battle_group() -> None:
        """Battles of the game in play: land, naval, sieges (manual: battle reports)."""

    @battle_group.command("report")
    @click.argument("battle_id", required=False, metavar="[BATTLE-ID]")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
    @game_options
    def report(battle_id: str | None, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """The report of one battle, round by round; without BATTLE-ID, the list of the game's battles."""
        s = open_session(game, power, password)
        found = battles_of(s.current())
        if battle_id is None:
            if as_json:
                click.echo(json.dumps([{"id": k, "what": w, "finished": finished(b)}
                                       for k, (w, b) in found.items()], indent=2))
            elif not found:
                click.echo("no battles in this game now (battles start in the naval and land phases)")
            for k, (w, b) in ({} if as_json else found).items():
                state = "finished" if finished(b) else "in progress"
                click.echo(f"{k}  {w} battle in {_where(w, b)}, {state}")
            return
        if battle_id not in found:  # the id of one of its questions, as 'status' prints it (naval:ID:retreat:FR, battle:…/3)
            battle_id = next((k for k in found if battle_id.split("/")[0] == k
                              or battle_id.startswith(("naval:" + k + ":", "siege:" + k + ":"))), battle_id)
        if battle_id not in found:
            known = ", ".join(found) or "none"
            raise IllegalAction(f"there is no battle {battle_id!r} in this game (battles now: {known})",
                                hint="'eiapbem battle report' lists them")
        from eiapbem.client import fog

        fog.check_report(s.current(), battle_id, fog.viewers(s))  # 4.1.1 Fog of War
        what, b = found[battle_id]
        click.echo(render(what, b, as_json))

    @battle_group.command("result")
    @click.argument("battle_id", metavar="BATTLE-ID")
    @click.option("--winner", type=click.Choice(["attacker", "defender", "none"]), required=True)
    @click.option("--loss", "losses", multiple=True, metavar="UNIT=TYPE:N", help="Factors a unit lost, e.g. corps:AU:I=infantry:3.")
    @click.option("--out", "out", type=click.Path(path_type=Path, dir_okay=False), required=True, help="The result file to write.")
    @game_options
    def result(battle_id: str, winner: str, losses: tuple[str, ...], out: Path, game: str | None, power: str | None,
               password: str | None) -> None:
        """Write the result of a battle fought with a third party combat system, signed by you (4.1.1)."""
        from eiapbem.client import external

        s = open_session(game, power, password)
        external.write(out, s.current(), s.me, s.chain.gid, battle_id, winner, list(losses))
        click.echo(f"wrote {out} signed by {s.me.role}; the other side signs it with 'eiapbem battle sign {out.name}'")

    @battle_group.command("sign")
    @click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
    @game_options
    def sign(file: Path, game: str | None, power: str | None, password: str | None) -> None:
        """Check a third party combat result file and add your signature (4.1.1)."""
        from eiapbem.client import external

        s = open_session(game, power, password)
        doc = external.countersign(file, s.current(), s.me, s.chain.gid, s.chain.roster)
        click.echo(f"{file}: {doc['battle']}, {doc['winner']} wins, losses {', '.join(doc['losses']) or 'none'}; "
                   f"signed by {', '.join(sorted(doc['signatures']))}")

    @battle_group.command("import")
    @click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
    @game_options
    def import_(file: Path, game: str | None, power: str | None, password: str | None) -> None:
        """Enter a third party combat result signed by both sides in the attacker's land slot (4.1.1)."""
        from eiapbem.client import external

        s = open_session(game, power, password)
        action = external.import_action(file, s.current(), s.chain.gid, s.chain.roster)
        for e in s.act(action).events:
            click.echo(e.text)

