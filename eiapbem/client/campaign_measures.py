"""What a campaign had, as a player watching it would count it: wars, coalitions, battles of armies, capitals, peaces.

A ``Chronicle`` is given the game's states in the order they were played
(``observe``: after every slot in memory, ``client/duel.py``; after every file
and every computer slot in a campaign by files, ``client/campaign.py``) and, at
the end, the game's journal (the public log).  It counts from those two only,
through the rules' own definitions, never by a hook in the rules:

- **wars declared between great powers**: a war record (``relations.war_with``:
  the pair and its ``since`` month) not in the first state (the scenario's wars
  are not declared in the campaign); **peaces**: a pair at war in one state and
  not in the next, with the terms the journal gives for that pair in that
  month (``diplomacy.peace``'s ``terms_kind``, ``diplomacy.term``'s ``code``;
  none said: an informal peace, 6.4.1);
- **alliances formed**: a pair of powers allied (``relations.allies``) in a state
  and not in the one before;
- **subsidies**: money sent in a diplomacy phase (6.12 lend-money, 6.16 a
  granted request), seen as a rise of ``PowerState.loans`` (the money in transit
  to the next economic phase), and money given in an economic phase (12.3,
  ``GiveMoney``), read from the orders the runner saw given (``orders``: the
  economic phase's ledger is not kept in the state or the journal);
- **field battles of armies**: the state's field battles (11.2; it keeps every
  battle fought) in which each side fought with at least ``ARMY`` factors (the
  largest ``basis`` of its rounds, 11.2.4), with the winning power;
- **capitals taken**: a great power's national capital city (``mapgraph.
  NATIONAL_CAPITALS``) whose holder (``control.city_holder``, 13.5) becomes
  another nation;
- **corps moved**: the journal's ``land.move`` and ``land.disembark`` lines by the
  power that gave the order (a minor's corps counts for the power acting for
  it), counted once per corps and month; Spain's guerrilla factors are not
  corps (13.2.1) and their moves are not counted, and the months in which each power
  moved a corps;
- **factors lost to foraging** (the journal's ``land.forage`` losses, 10.5)
  against **factors lost in battle** (the ``factors_lost`` of both sides of every
  field and trivial combat, 11.2, 11.3);
- **the political map's change**: every province and minor district whose holder
  (``control.province_holder``) differs between the first and the last state;
- **the slowest computer slot**: CPU seconds, measured by the runner (``timed``).

Floats appear only in the seconds.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from eiapbem.rules.land import guerrillas
from eiapbem.rules.model import POWERS, GameState, LogEntry

#: Factors each side of a field battle has at least for it to count as a battle of armies.
ARMY = 10
#: The continental great powers (every one but Great Britain).
CONTINENTAL = tuple(p for p in POWERS if p != "GB")
#: The powers France fights for the continent.
FRANCE_RIVALS = ("AU", "PR", "RU")


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if POWERS.index(a) < POWERS.index(b) else (b, a)


def _month(slot_key: str) -> str:
    return slot_key[:7]


@dataclass(frozen=True)
class War:
    month: str
    a: str
    b: str
    declared_by: tuple[str, ...]


@dataclass(frozen=True)
class Peace:
    month: str
    a: str
    b: str
    #: "informal" (6.4.1), or "conditional"/"unconditional" surrender of ``loser`` (6.4.2).
    kind: str
    loser: str = ""
    terms: tuple[str, ...] = ()


@dataclass(frozen=True)
class Battle:
    id: str
    area: str
    attacker: str
    defender: str
    attacking: int
    defending: int
    #: The winning power, or "" (a draw or a neutral minor's side).
    winner: str


@dataclass(frozen=True)
class Subsidy:
    month: str
    giver: str
    to: str
    amount: int
    #: "6.12" (sent in a diplomacy phase, or granted on request 6.16) or "12.3" (given in an economic phase).
    how: str


@dataclass
class Figures:
    """One campaign's figures (``Chronicle.figures``)."""

    months: int
    new_wars: list[War] = field(default_factory=list)
    new_alliances: list[tuple[str, str, str]] = field(default_factory=list)  # (month, a, b)
    subsidies: list[Subsidy] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)
    capitals: list[tuple[str, str, str, str]] = field(default_factory=list)  # (month, capital, owner, taker)
    peaces: list[Peace] = field(default_factory=list)
    corps_moved: dict[str, int] = field(default_factory=dict)
    months_moving: dict[str, int] = field(default_factory=dict)
    forage_lost: dict[str, int] = field(default_factory=dict)
    battle_lost: dict[str, int] = field(default_factory=dict)
    provinces: list[tuple[str, str, str]] = field(default_factory=list)  # (province, from, to)
    slowest: tuple[float, str] = (0.0, "")
    #: Pairs of powers seen at war / allied at any time (the scenario's own included).
    at_war_seen: frozenset[tuple[str, str]] = frozenset()
    allied_seen: frozenset[tuple[str, str]] = frozenset()

    # ------------------------------------------------------------- derived

    def big_battles(self) -> list[Battle]:
        return [b for b in self.battles if b.attacking >= ARMY and b.defending >= ARMY]

    def france_at_war_with_a_rival(self) -> bool:
        """France at war with Austria, Prussia or Russia at some time."""
        return any(_pair("FR", q) in self.at_war_seen for q in FRANCE_RIVALS)

    def britain_with_a_continental_power(self) -> bool:
        """Great Britain allied with, or subsidising, a continental power at some time."""
        return (any(_pair("GB", q) in self.allied_seen for q in CONTINENTAL)
                or any(s.giver == "GB" and s.to in CONTINENTAL for s in self.subsidies))

    def lines(self) -> list[str]:
        """The campaign's figures, a few lines a player reads."""
        out = []
        wars = ", ".join(f"{w.month} {'+'.join(w.declared_by) or w.a} on "
                         f"{w.b if w.a in w.declared_by or not w.declared_by else w.a}" for w in self.new_wars)
        out.append(f"wars declared between great powers: {len(self.new_wars)}" + (f" ({wars})" if wars else ""))
        allies = ", ".join(f"{m} {a}-{b}" for m, a, b in self.new_alliances)
        out.append(f"alliances formed: {len(self.new_alliances)}" + (f" ({allies})" if allies else ""))
        subs = ", ".join(f"{s.month} {s.giver}->{s.to} ${s.amount} ({s.how})" for s in self.subsidies)
        out.append(f"subsidies given: {len(self.subsidies)}, ${sum(s.amount for s in self.subsidies)}"
                   + (f" ({subs})" if subs else ""))
        big = self.big_battles()
        out.append(f"field battles with at least {ARMY} factors a side: {len(big)}"
                   + (" (" + ", ".join(f"{b.area} {b.attacker} {b.attacking} v {b.defender} {b.defending}: "
                                       f"{b.winner + ' won' if b.winner else 'no winner'}" for b in big) + ")" if big else "")
                   + f"; all field battles {sum(1 for _ in self.battles)}")
        caps = ", ".join(f"{m} {c} ({o}) by {t}" for m, c, o, t in self.capitals)
        out.append(f"capitals of great powers taken: {len(self.capitals)}" + (f" ({caps})" if caps else ""))
        peaces = ", ".join(f"{p.month} {p.a}-{p.b} " + (f"{p.loser} surrenders {p.kind}ly" if p.loser else p.kind)
                           + (f" [{' '.join(p.terms)}]" if p.terms else "") for p in self.peaces)
        out.append(f"peace treaties: {len(self.peaces)}" + (f" ({peaces})" if peaces else ""))
        out.append("corps moved per power (months with a move): "
                   + ", ".join(f"{p} {self.corps_moved.get(p, 0)} ({self.months_moving.get(p, 0)}/{self.months})"
                               for p in POWERS))
        forage, battle = sum(self.forage_lost.values()), sum(self.battle_lost.values())
        out.append(f"factors lost to foraging {forage} against factors lost in battle {battle} ("
                   + ", ".join(f"{p} {self.forage_lost.get(p, 0)}/{self.battle_lost.get(p, 0)}" for p in POWERS) + ")")
        moved = Counter((f, t) for _p, f, t in self.provinces)
        out.append(f"provinces that changed hands: {len(self.provinces)}"
                   + (" (" + ", ".join(f"{f} to {t}: {n}" for (f, t), n in sorted(moved.items())) + ")" if moved else ""))
        out.append(f"France at war with Austria, Prussia or Russia: {'yes' if self.france_at_war_with_a_rival() else 'no'}; "
                   f"Great Britain allied with or subsidising a continental power: "
                   f"{'yes' if self.britain_with_a_continental_power() else 'no'}")
        out.append(f"slowest computer slot: {self.slowest[0]:.2f} s CPU ({self.slowest[1] or '-'})")
        return out


def total_lines(all_figures: list[Figures]) -> list[str]:
    """The figures over several campaigns: the total and the median of each count, and the shares."""
    n = len(all_figures)
    if not n:
        return []

    def row(label: str, values: list[int]) -> str:
        return f"  {label}: total {sum(values)}, median {statistics.median(values):g} (per campaign: {' '.join(map(str, values))})"

    months = max(f.months for f in all_figures)
    out = [f"over {n} campaign(s) of {months} months:"]
    out.append(row("wars declared between great powers", [len(f.new_wars) for f in all_figures]))
    out.append(row("alliances formed", [len(f.new_alliances) for f in all_figures]))
    out.append(row("subsidies given", [len(f.subsidies) for f in all_figures]))
    out.append(row(f"field battles with at least {ARMY} factors a side", [len(f.big_battles()) for f in all_figures]))
    out.append(row("capitals of great powers taken", [len(f.capitals) for f in all_figures]))
    out.append(row("peace treaties", [len(f.peaces) for f in all_figures]))
    out.append(row("provinces that changed hands", [len(f.provinces) for f in all_figures]))
    out.append(row("factors lost to foraging", [sum(f.forage_lost.values()) for f in all_figures]))
    out.append(row("factors lost in battle", [sum(f.battle_lost.values()) for f in all_figures]))
    out.append("  months with corps moved, median per power: " + ", ".join(
        f"{p} {statistics.median([f.months_moving.get(p, 0) for f in all_figures]):g}" for p in POWERS))
    out.append("  corps moved, median per power: " + ", ".join(
        f"{p} {statistics.median([f.corps_moved.get(p, 0) for f in all_figures]):g}" for p in POWERS))
    fr = sum(1 for f in all_figures if f.france_at_war_with_a_rival())
    gb = sum(1 for f in all_figures if f.britain_with_a_continental_power())
    out.append(f"  France at war with Austria, Prussia or Russia in {fr} of {n}; Great Britain allied with or "
               f"subsidising a continental power in {gb} of {n}")
    slow = max((f.slowest for f in all_figures), key=lambda s: s[0])
    out.append(f"  slowest computer slot: {slow[0]:.2f} s CPU ({slow[1] or '-'})")
    return out


class Chronicle:
    """Reads a campaign as it is played (``observe`` each state, ``orders`` seen, ``timed`` slots), then ``figures``."""

    def __init__(self) -> None:
        from eiapbem.data import mapdata

        self.map = mapdata.load_map()
        self.first: GameState | None = None
        self.last: GameState | None = None
        self._wars: dict[tuple[str, str, str], War] = {}
        self._initial_wars: set[tuple[str, str, str]] = set()
        self.new_alliances: list[tuple[str, str, str]] = []  # (month, a, b): a pair allied now, not before
        self._allied: set[tuple[str, str]] = set()
        self._loans: dict[tuple[str, str], int] = {}
        self.subsidies: list[Subsidy] = []
        self._capital_holder: dict[str, str] = {}
        self.capitals: list[tuple[str, str, str, str]] = []
        self._ended: list[tuple[str, str, str]] = []  # (month, a, b): a war pair seen ending
        self._at_war: set[tuple[str, str]] = set()
        self.at_war_seen: set[tuple[str, str]] = set()
        self.allied_seen: set[tuple[str, str]] = set()
        self.slowest: tuple[float, str] = (0.0, "")

    # ------------------------------------------------------------- feeding

    def observe(self, st: GameState) -> None:
        """The game's next state (observing the same state twice changes nothing)."""
        from eiapbem.rules import control, relations
        from eiapbem.rules.mapgraph import NATIONAL_CAPITALS

        if st is self.last:
            return
        month = str(st.date)
        first = self.first is None
        if first:
            self.first = st
        wars_now: set[tuple[str, str]] = set()
        allied_now: set[tuple[str, str]] = set()
        for p in POWERS:
            ps = st.powers[p]
            for q in relations.enemies(st, p):
                if q not in POWERS or POWERS.index(q) < POWERS.index(p):
                    continue
                w = relations.war_with(st, p, q)
                key = (p, q, str(w.since))
                wars_now.add((p, q))
                if first:
                    self._initial_wars.add(key)
                elif key not in self._wars and key not in self._initial_wars:
                    self._wars[key] = War(str(w.since), p, q, tuple(w.declared_by))
            for q in relations.allies(st, p):
                if q in POWERS and POWERS.index(q) > POWERS.index(p):
                    allied_now.add((p, q))
            for to, amount in ps.loans.items():
                before = self._loans.get((p, str(to)), 0)
                if amount > before and not first:
                    self.subsidies.append(Subsidy(month, p, str(to), amount - before, "6.12"))
        self._loans = {(p, str(to)): amount for p in POWERS for to, amount in st.powers[p].loans.items()}
        for pair in sorted(self._at_war - wars_now):
            self._ended.append((month, *pair))
        if not first:
            self.new_alliances.extend((month, a, b) for a, b in sorted(allied_now - self._allied))
        self._at_war, self._allied = wars_now, allied_now
        self.at_war_seen |= wars_now
        self.allied_seen |= allied_now
        for owner, caps in NATIONAL_CAPITALS.items():
            for area in caps:
                held = control.city_holder(st, self.map, area)
                holder = relations.power_of(st, held) or held  # a minor's corps counts for the power acting for it
                was = self._capital_holder.get(area, owner)
                if holder != was and holder != owner and not first:
                    self.capitals.append((month, area, owner, holder))
                self._capital_holder[area] = holder
        self.last = st

    def orders(self, st: GameState, power: str, actions: Iterable[Any]) -> None:
        """Orders given in a simultaneous slot of ``st`` (the economic phase's gifts are read from them, 12.3)."""
        from eiapbem.rules.economy.phase import GiveMoney

        for a in actions:
            if isinstance(a, GiveMoney):
                self.subsidies.append(Subsidy(str(st.date), power, str(a.to), int(a.amount), "12.3"))

    def timed(self, seconds: float, slot_key: str) -> None:
        """A computer slot took ``seconds`` of CPU."""
        if seconds > self.slowest[0]:
            self.slowest = (seconds, slot_key)

    # ------------------------------------------------------------- reading

    def figures(self, journal: Iterable[LogEntry], months: int) -> Figures:
        """The campaign's figures from what was observed and the whole journal."""
        from eiapbem.rules import control

        assert self.first is not None and self.last is not None, "observe the states before reading the figures"
        journal = list(journal)
        last, first = self.last, self.first
        out = Figures(months=months)
        out.new_wars = sorted(self._wars.values(), key=lambda w: (w.month, POWERS.index(w.a), POWERS.index(w.b)))
        out.new_alliances = list(self.new_alliances)
        out.subsidies = list(self.subsidies)
        out.capitals = list(self.capitals)
        out.slowest = self.slowest
        out.at_war_seen = frozenset(self.at_war_seen)
        out.allied_seen = frozenset(self.allied_seen)
        # peaces, with the journal's terms of that month for that pair
        surrenders: dict[tuple[str, str, str], tuple[str, str]] = {}
        terms: dict[tuple[str, str, str], list[str]] = {}
        for e in journal:
            prm: Mapping[str, Any] = e.params or {}
            if e.kind == "diplomacy.peace" and "terms_kind" in prm and prm.get("other") in POWERS:
                loser, victor = str(prm.get("power")), str(prm["other"])
                surrenders[(_month(e.slot), *_pair(loser, victor))] = (loser, str(prm["terms_kind"]))
            elif e.kind == "diplomacy.term" and "code" in prm and prm.get("victor") in POWERS:
                loser, victor = str(prm.get("power")), str(prm["victor"])
                terms.setdefault((_month(e.slot), *_pair(loser, victor)), []).append(str(prm["code"]))
        for month, a, b in self._ended:
            loser, kind = surrenders.get((month, a, b), ("", "informal"))
            out.peaces.append(Peace(month, a, b, kind, loser, tuple(terms.get((month, a, b), ()))))
        # battles of the state
        for bid, fb in sorted(last.battles.items()):
            lost_a, lost_d = fb.attacker.factors_lost, fb.defender.factors_lost
            for side, lost in ((fb.attacker, lost_a), (fb.defender, lost_d)):
                if side.power in POWERS:
                    out.battle_lost[side.power] = out.battle_lost.get(side.power, 0) + lost
            if fb.kind != "field":
                continue
            basis = {"attacker": 0, "defender": 0}
            for ev in fb.events:
                if ev.kind == "battle.round" and ev.params.get("role") in basis:
                    basis[str(ev.params["role"])] = max(basis[str(ev.params["role"])], int(ev.params.get("basis", 0)))
            win = fb.side(fb.winner).power if fb.winner in ("attacker", "defender") else None
            out.battles.append(Battle(bid, fb.area, fb.attacker.power or "-", fb.defender.power or "-",
                                      basis["attacker"], basis["defender"], win or ""))
        # the journal: corps moved, foraging
        moved: dict[str, set[tuple[str, str]]] = {p: set() for p in POWERS}
        for e in journal:
            if e.author not in POWERS:
                continue
            prm = e.params or {}
            forage: Any = prm.get("lost")  # a count of factors (``land.forage``)
            unit = prm.get("unit") or prm.get("corps")  # a move names its unit, a landing its corps (10.4.5)
            if e.kind in ("land.move", "land.disembark") and unit and not str(unit).startswith(guerrillas.PREFIX):
                moved[e.author].add((_month(e.slot), str(unit)))
            elif e.kind == "land.forage" and forage:
                out.forage_lost[e.author] = out.forage_lost.get(e.author, 0) + int(forage)
        out.corps_moved = {p: len(moved[p]) for p in POWERS}
        out.months_moving = {p: len({m for m, _u in moved[p]}) for p in POWERS}
        # the political map
        for prov in sorted(self.map.provinces):
            was, now = control.province_holder(first, self.map, prov), control.province_holder(last, self.map, prov)
            if was != now:
                out.provinces.append((prov, was or "-", now or "-"))
        return out


__all__ = ["ARMY", "Battle", "Chronicle", "Figures", "Peace", "Subsidy", "War", "total_lines"]
