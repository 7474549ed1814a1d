"""What ``eiapbem campaign`` shows at the end: the victory result (12.1.3), a table per power, yearly maps.

Every figure is read from the final state through the rules' own definitions:
provinces held are ``rules.control.province_holder`` of every province and
minor district of the map; wars are ``rules.relations.at_war``; victory levels
and percentages are ``rules.economy.victory``'s.  Battles are the state's
field battles (11.2, 11.3) and naval battles (9.0), which the state keeps
for the whole game once fought.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from eiapbem.rules.model import POWERS, GameState, LogEntry


def battles_won_lost(st: GameState) -> tuple[dict[str, int], dict[str, int]]:
    """Finished field and naval battles won and lost per major power (a neutral minor's side counts for nobody)."""
    from eiapbem.rules.relations import unit_power

    won = {p: 0 for p in POWERS}
    lost = {p: 0 for p in POWERS}

    def count(winner_power: str | None, loser_power: str | None) -> None:
        if winner_power in won:
            won[winner_power] += 1
        if loser_power in lost:
            lost[loser_power] += 1

    for b in st.battles.values():
        if b.winner in ("attacker", "defender"):
            other = "defender" if b.winner == "attacker" else "attacker"
            count(b.side(b.winner).power, b.side(other).power)
    for nb in st.naval_battles.values():
        if nb.victor not in ("attacker", "defender"):
            continue
        defenders = {unit_power(st, st.units[f]) for f in nb.defenders if f in st.units}
        defender = next(iter(sorted(p for p in defenders if p)), None)
        att, dfn = nb.power, defender
        count(att if nb.victor == "attacker" else dfn, dfn if nb.victor == "attacker" else att)
    return won, lost


def provinces_held(st: GameState) -> dict[str, int]:
    """Provinces (home, ceded) and minor districts (conquered, free states) each power holds (13.3, 12.7)."""
    from eiapbem.data import mapdata
    from eiapbem.rules.control import province_holder

    m = mapdata.load_map()
    out = {p: 0 for p in POWERS}
    for prov in m.provinces:
        holder = province_holder(st, m, prov)
        if holder in out:
            out[holder] += 1
    return out


def power_table(st: GameState) -> list[str]:
    """A line per power: VP (and % of its victory level), money, manpower, provinces, battles won/lost, wars."""
    from eiapbem.rules import relations
    from eiapbem.rules.economy.victory import percentages

    won, lost = battles_won_lost(st)
    held = provinces_held(st)
    pct = percentages(st)
    lines = [f"{'power':<6}{'VP':>6}{'%lvl':>6}{'money':>7}{'manpower':>9}{'provinces':>10}  {'battles W/L':>11}  wars"]
    for p in POWERS:
        ps = st.powers[p]
        wars = " ".join(q for q in POWERS if q != p and relations.at_war(st, p, q)) or "-"
        lines.append(f"{p:<6}{ps.victory_points:>6}{pct[p]:>5}%{ps.treasury:>7}{ps.manpower:>9}{held[p]:>10}  "
                     f"{won[p]:>5}/{lost[p]:<5}  {wars}")
    return lines


def victory_lines(st: GameState) -> list[str]:
    """The victory result (12.1.3): the campaign winners, or who leads by percentage of its level if none yet."""
    from eiapbem.rules.economy.victory import shorter_campaign_winners

    if st.victors:
        over = "The game is over" if st.slot is None else "Campaign victory"
        return [f"{over} (12.1.3): {' '.join(st.victors)} won."]
    where = "game over" if st.slot is None else st.slot.key(st.date)
    lead = shorter_campaign_winners(st)
    who = "every power would share the win (all at the same percentage of their levels)" if len(lead) == len(POWERS) \
        else f"{' '.join(lead)} would win (largest percentage of its victory level)"
    return [f"No campaign victory yet (12.1.3); the game stands at {where}.",
            f"Were it a shorter campaign ending now (12.1.3 Shorter Campaigns), {who}."]


def event_line(st: GameState, journal: Iterable[LogEntry]) -> str:
    """What the game's journal (the whole public log) says happened, counted as ``duel.play`` counts it."""
    from .duel import counted

    seen = counted(st, journal)
    return (f"In the log: declarations of war {seen.declarations}, land battles {seen.counts['battle.start']}, "
            f"naval battles {seen.counts['naval.combat']}, siege results {seen.counts['siege.result']}, "
            f"peaces {seen.peaces}.")


def write_map(out: Path, game: str, st: GameState, unit_labels: Callable[[GameState], list] | None) -> Path:
    """The political map of ``st`` with its units (``present.svgmap``), as ``out/map-YYYY-MM.svg``."""
    from eiapbem.data import mapdata
    from eiapbem.present import svgmap

    from eiapbem.rules import control, relations

    m = mapdata.load_map(None)
    # Who holds each area as the rules say (conquered, ceded and occupied areas included), as 'map' draws it.
    controllers = {a: relations.power_of(st, control.area_holder(st, m, a)) for a in sorted(m.areas)}
    units = svgmap.units_by_area(unit_labels(st)) if unit_labels else None
    text = svgmap.render_svg(m, controllers=controllers, units=units, title=f"{game}, {st.date.name}")
    path = Path(out) / f"map-{st.date}.svg"
    path.write_text(text, encoding="utf-8")
    return path


__all__ = ["battles_won_lost", "event_line", "power_table", "provinces_held", "victory_lines", "write_map"]
