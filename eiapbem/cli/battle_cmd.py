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



def render(what: str, b: Any, as_json: bool) -> str:
    from eiapbem.client import documents

    if as_json:
        return json.dumps(documents.battle_record(what, b), indent=2, default=_plain)
    return documents.battle_text(what, b)


def _plain(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.hex()
    raise TypeError(f"{type(v).__name__} is not JSON")


def register(cli: click.Group) -> None:
    from .answers import read_only
    from .common import game_options, open_session

    @cli.group("battle")
    def battle_group() -> None:
        """Battles of the game in play: land, naval, sieges (manual: battle reports)."""

    @battle_group.command("report")
    @click.argument("battle_id", required=False, metavar="[BATTLE-ID]")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
    @game_options
    @read_only()
    def report(battle_id: str | None, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """The report of one battle, round by round; without BATTLE-ID, the list of the game's battles."""
        from eiapbem.client import documents

        s = open_session(game, power, password)
        if battle_id is None:
            found = documents.battles(s)
            if as_json:
                click.echo(json.dumps([{k: b[k] for k in ("id", "what", "finished")} for b in found], indent=2))
            elif not found:
                click.echo("no battles in this game now (battles start in the naval and land phases)")
            for b in [] if as_json else found:
                state = "finished" if b["finished"] else "in progress"
                click.echo(f"{b['id']}  {b['what']} battle in {b['place']}, {state}")
            return
        _, what, b = documents.find_battle(s, battle_id)  # 4.1.1 Fog of War
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

