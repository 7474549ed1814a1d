"""``eiapbem economy summary``: the quarter's income and spending, line by line (12.0)."""

from __future__ import annotations

import json
from typing import Any

import click

from eiapbem.errors import BadData
from eiapbem.rules.model import POWERS, Date, GameState, Phase, Slot
from eiapbem.rules.model.common import ECONOMIC_MONTHS
from eiapbem.rules.model.slot import ORDERS

PREVIEW_SEED = "preview"


def scenario_state(scenario_id: str, month: str | None) -> tuple[GameState, Any]:
    """A scenario's first state moved to an economic month (the first one by default)."""
    from eiapbem.data import world
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


def records(state: GameState, seed: str, power: str | None) -> list[dict[str, Any]]:
    """``economy.phase.summary`` with the packaged data and the preview dice."""
    from eiapbem.data.context import rules_context
    from eiapbem.rules.dice import Dice
    from eiapbem.rules.economy.phase import summary

    return summary(state, rules_context(Dice(seed.encode("utf-8"))), power=power)


def render(recs: list[dict[str, Any]], state: GameState, seed: str) -> str:
    out = [f"Economic summary, {state.date.name} ({state.scenario}); random numbers from the seed {seed!r}"]
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


def register(cli: click.Group) -> None:
    @cli.group()
    def economy() -> None:
        """The economic phase (section 12)."""

    @economy.command("summary")
    @click.option("--power", type=click.Choice(POWERS), help="Only this power (and its free states).")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
    @click.option("--scenario", "scenario_id", default="classic-1805", show_default=True,
                  help="Scenario whose first state is summarised.")
    @click.option("--month", help="Economic month to summarise, like 1805-03 (default: the first).")
    @click.option("--seed", default=PREVIEW_SEED, show_default=True,
                  help="Seed of the preview's random numbers (loss numbers, gold, USA war, piracy).")
    def summary(power: str | None, as_json: bool, scenario_id: str, month: str | None, seed: str) -> None:
        """The quarter's income and spending per power, line by line, with no orders given.

        Random numbers come from a preview seed: the real ones are those of the
        file that resolves the phase.
        """
        state, _ = scenario_state(scenario_id, month)
        recs = records(state, seed, power)
        if as_json:
            click.echo(json.dumps({"scenario": state.scenario, "month": str(state.date), "seed": seed,
                                   "funds": recs}, indent=2))
        else:
            click.echo(render(recs, state, seed))
