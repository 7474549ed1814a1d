"""``eiapbem economy summary``: the quarter's income and spending, line by line (12.0)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from eiapbem.core.dice import PREVIEW_SEED
from eiapbem.core.errors import BadData
from eiapbem.core.powers import POWERS

if TYPE_CHECKING:
    from eiapbem.rules.model import GameState


def scenario_state(scenario_id: str, month: str | None) -> tuple[GameState, Any]:
    """A scenario's first state moved to an economic month (the first one by default)."""
    from eiapbem.data import world
    from eiapbem.rules.model import Date, Phase, Slot
    from eiapbem.rules.model.common import ECONOMIC_MONTHS
    from eiapbem.rules.model.slot import ORDERS
    from eiapbem.rules.scenario import initial_state

    if scenario_id not in world.scenario_ids():
        raise BadData(f"there is no scenario {scenario_id!r}; use one of {', '.join(world.scenario_ids())}")
    state = initial_state(world.load_scenario(scenario_id), world.load_raw())
    if month is None:
        date = state.start
        while date.month not in ECONOMIC_MONTHS:
            date = date.next()
    else:
        try:
            date = Date.parse(month)
        except ValueError as err:
            raise BadData(f"--month {month!r} is not a month like 1805-03") from err
        if date.month not in ECONOMIC_MONTHS or not state.start <= date <= state.end:
            raise BadData(f"--month {month} has no economic phase in this scenario; use March, June, September or December between {state.start} and {state.end}")
    return state.replace(date=date, slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS)), world


def records(state: GameState, seed: str, power: str | None, orders: Any = None) -> list[dict[str, Any]]:
    """``economy.phase.summary`` with the packaged data and the preview dice (``client.documents``)."""
    from eiapbem.client import documents

    return documents.economy_records(state, seed, power, orders)


def render(recs: list[dict[str, Any]], state: GameState, seed: str) -> str:
    return render_plain(recs, state.date.name, state.scenario, seed)


def render_plain(recs: list[dict[str, Any]], month_name: str, scenario: str, seed: str) -> str:
    """The summary as text, from its records and its month's and scenario's names."""
    out = [f"Economic summary, {month_name} ({scenario}): a projection; its random numbers (losses, gold, "
           f"piracy...) come from the preview seed {seed!r}, the phase itself rolls its own"]
    for r in recs:
        out.append("")
        title = r["power"] if r["fund"] == r["power"] else f"{r['power']} / {r['fund']}"
        out.append(f"{title}: treasury ${r['opening_money']}, manpower {r['opening_manpower']}")
        for ln in r["lines"]:
            amounts = []
            if ln["money"]:
                amounts.append(f"{ln['money']:+d} $")
            if ln["manpower"]:
                amounts.append(f"{ln['manpower']:+d} mp")
            if ln["political"]:
                amounts.append(f"{ln['political']:+d} pp")
            if ln["vp"]:
                amounts.append(f"{ln['vp']:+d} vp")
            text = ", ".join(amounts) or "-"
            detail = f"  ({ln['detail']})" if ln["detail"] else ""
            out.append(f"  {ln['step']:<18} {ln['item']:<40} {text:>14}{detail}")
        out.append(f"  {'':<18} {'closing':<40} ${r['closing_money']}, manpower {r['closing_manpower']}")
    return "\n".join(out)


def game_state(s: Any) -> tuple[GameState, dict[str, list], str]:
    """A game's state for the summary (``client.documents.economy_state``)."""
    from eiapbem.client import documents

    return documents.economy_state(s)


def unaffordable(s: Any, action: Any, *, before: bool = False) -> str | None:
    """Why a purchase just taken (or, with ``before``, about to be taken) will not be carried out as things stand
    (``client.documents.unaffordable``)."""
    from eiapbem.client import documents

    return documents.unaffordable(s, action, before=before)


#: The most resolutions of the phase a status record is made with for ``economy summary --seed`` (``_kept``): one
#: when no die is read (any seed gives the preview's records), six for one loss number or a war with the USA, eleven
#: for September's convoy.
OUTCOMES_KEPT = 12


def _kept(s: Any) -> dict[str, Any]:
    """What ``economy summary`` answers from for the folder's game: every power's records of the projection (the
    acting power's orders counted), from which ``--only`` selects (``economy.phase.summary`` resolves the phase
    once and keeps one power's lines), for every seed: each result of the phase's dice, the tree that picks a seed's
    (``client.documents.economy_outcomes``: ``table``, every power's record in any result; ``results``, the records
    of each), or when the phase takes more than ``OUTCOMES_KEPT`` resolutions, the preview seed's (``funds``)."""
    from eiapbem.client import documents

    state, orders, note = game_state(s)
    data = {"me": s.power, "scenario": state.scenario, "month": str(state.date), "month_name": state.date.name,
            "note": note}
    found = documents.economy_outcomes(state, orders, OUTCOMES_KEPT)
    if found is None:
        return {**data, "funds": records(state, PREVIEW_SEED, None, orders)}
    table: list[dict[str, Any]] = []
    index: dict[str, int] = {}  # a record's place in ``table``, by its JSON (keys in the order they are printed)

    def place(r: dict[str, Any]) -> int:
        key = json.dumps(r)
        if key not in index:
            index[key] = len(table)
            table.append(r)
        return index[key]

    results = [[place(r) for r in recs] for recs in found[1]]
    return {**data, "tree": found[0], "table": table, "results": results}


def _funds(data: dict[str, Any], seed: str) -> list[dict[str, Any]] | None:
    """Every power's records of the projection on ``seed``'s dice, from ``_kept``'s; None when they do not say."""
    if "tree" not in data:
        return data["funds"] if seed == PREVIEW_SEED else None
    from eiapbem.core.dice import DiceError, pick

    try:
        result = pick(data["tree"], seed.encode("utf-8"))
    except DiceError:  # the command says what is wrong with the seed
        return None
    return [data["table"][i] for i in data["results"][result]]


def _answer(data: dict[str, Any], kw: dict[str, Any]) -> tuple[str, str] | None:
    """``economy summary [--only P] [--seed S] [--json]`` of the folder's game from ``_kept``'s records."""
    if kw["month"] or kw["save_file"] is not None or kw["scenario_id"] is not None:
        return None
    funds = _funds(data, kw["seed"])
    if funds is None:
        return None
    only, me = kw["only"], data["me"]
    who = only or me if me != "host" else only
    recs = [r for r in funds if who is None or r["power"] == who]
    note = data["note"]
    if kw["as_json"]:
        return json.dumps({"scenario": data["scenario"], "month": data["month"], "seed": kw["seed"], "note": note,
                           "funds": recs}, indent=2) + "\n", ""
    return render_plain(recs, data["month_name"], data["scenario"], kw["seed"]) + (f"\n({note})" if note else "") + "\n", ""


def register(cli: click.Group) -> None:
    from .answers import Kept, read_only
    from .common import game_options, home as _home, open_save, open_session

    @cli.group()
    def economy() -> None:
        """The economic phase (section 12)."""

    @economy.command("summary")
    @click.option("--only", "only", type=click.Choice(POWERS),
                  help="Only this power (and its free states); for a game, default: the acting power.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
    @click.option("--save", "save_file", type=click.Path(path_type=Path, dir_okay=False),
                  help="A game's save (save/GameName.sav); default: the game in this folder, if any.")
    @click.option("--scenario", "scenario_id", help="Summarise this scenario's first state instead of a game (e.g. classic-1805).")
    @click.option("--month", help="With --scenario: the economic month to summarise, like 1805-03 (default: the first).")
    @click.option("--seed", default=PREVIEW_SEED, show_default=True,
                  help="Seed of the preview's random numbers (loss numbers, gold, USA war, piracy).")
    @game_options
    @read_only(opens=lambda kw: kw["save_file"] is None and kw["scenario_id"] is None,
               kept=Kept("economy summary", _kept, _answer))
    def summary(only: str | None, as_json: bool, save_file: Path | None, scenario_id: str | None, month: str | None,
                seed: str, game: str | None, power: str | None, password: str | None) -> None:
        """The quarter's income and spending per power, line by line.

        For a game (the one in this folder, or --save FILE): the economic
        phase in play with your orders given so far, or a projection of the
        next one.  With --scenario: a scenario's first economic phase with no
        orders.  Random numbers come from a preview seed: the real ones are
        those of the file that resolves the phase.
        """
        from eiapbem.client import session as sess

        home = _home()
        if save_file is not None and scenario_id:
            raise BadData("give either --save or --scenario, not both")
        use_game = scenario_id is None and (save_file is not None or sess.game_names(home))
        note = ""
        if use_game:
            if month:
                raise BadData("--month goes with --scenario; a game's summary is of its own economic phase")
            s = open_save(save_file, power, password) if save_file is not None else open_session(game, power, password)
            state, orders, note = game_state(s)
            recs = records(state, seed, only or s.power if s.power != "host" else only, orders)
        else:
            if scenario_id is None:  # not silent: say this is no game's summary (issue 20)
                note = (f"there is no game in {home.resolve()}: this is the classic-1805 scenario's economic phase, "
                        "not a game's; --scenario chooses another, --home or --save a game")
            state, _ = scenario_state(scenario_id or "classic-1805", month)
            recs = records(state, seed, only or power if power != "host" else only)
        if as_json:
            click.echo(json.dumps({"scenario": state.scenario, "month": str(state.date), "seed": seed, "note": note,
                                   "funds": recs}, indent=2))
        else:
            click.echo(render(recs, state, seed) + (f"\n({note})" if note else ""))
