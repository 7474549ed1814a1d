"""What ``eiapbem status`` shows, as one record (``status_record``) and as text (``status_lines``).

The record is what ``eiapbem status --json`` prints (docs/json.md); the text is
made from it, so the two never disagree.  The demo prints the same text.
"""

from __future__ import annotations

from typing import Any

from eiapbem.client import fog
from eiapbem.core.errors import IllegalAction
from eiapbem.core.powers import POWER_NAMES, POWERS

#: Phase value -> the CLI group of its commands.
PHASE_COMMANDS = {"setup": "setup", "diplomacy": "diplomacy", "reinforcement": "reinforce", "naval": "naval",
                  "land": "land", "economic": "economy"}


def with_power(text: str, power: str, plays: list[str]) -> str:
    """A hint's quoted commands (``'eiapbem ...'``) with ``--power`` added where this folder plays several powers, so
    that each is accepted as written (a ``--help`` is left as it is)."""
    if len(plays) <= 1:
        return text
    import re

    def add(m: re.Match) -> str:
        cmd = m.group(1)
        return m.group(0) if "--power" in cmd or cmd.endswith("--help") else f"'{cmd} --power {power}'"

    return re.sub(r"'(eiapbem [^']*)'", add, text)


def status_record(s: Any) -> dict:
    """The status of a session's game: plain data (str, int, bool, list, dict, None) only."""
    from eiapbem.data.context import rules_context
    from eiapbem.rules import engine
    from eiapbem.rules.model import Phase


    st = s.state
    meta = s.meta
    slot = st.slot
    rec: dict = {
        "game": s.game,
        "scenario": meta.scenario,
        "power": s.power,
        "plays": [r for r in s.local if r != "host"],
        "hosts": "host" in s.local,
        "date": str(st.date),
        "date_name": st.date.name,
        "over": slot is None,
        "state_hash": st.state_hash().hex(),
        "phase": None, "phase_implemented": None, "simultaneous": None, "slot": None, "turn_of": None,
        "computer": [{"power": p, "level": st.powers[p].controller} for p in POWERS if st.powers[p].controller != "human"],
        "waiting": [], "actions_taken": None, "reloads": None, "reveal_round": False, "orders_sent": None, "to_do": [],
        "possible": None,
        "next": None, "battles": [], "pending": [], "not_implemented": [], "partly_built": [], "standing_orders": None,
        # 4.1.1 Fog of War: others' battles are only named (client.fog).
        "log": [{"slot": e.slot, "author": e.author, "text": fog.log_text(st, e, fog.viewers(s))} for e in s.journal(5)],
    }
    rec["peace_terms"] = peace_terms_in_force(st, s.power)
    try:  # the settings given in the slot so far count (they were missing until the slot ended)
        mine_now = s.current() if slot is not None and s.power in slot.actors else st
    except IllegalAction:
        mine_now = st
    rec["skips"] = skip_settings(mine_now, s.power)
    rec["skips_cancelled"] = skips_cancelled(st, s.power)
    rec["passed"] = passed_this_month(s)
    if slot is None:
        return rec
    impl = engine.phase_implemented(slot.phase)
    rec.update(phase=str(slot.phase), phase_implemented=impl, simultaneous=slot.simultaneous, slot=slot.key(st.date),
               turn_of=None if slot.simultaneous else slot.power)
    waiting = s.awaited()
    for p, _ in waiting:
        row = meta.players[p]
        if p in s.local:
            where = "at this computer"
        elif row.type.startswith("ai-"):
            where = "the computer cannot end this turn; the host can skip it: 'eiapbem admin skip'"
        elif row.type == "hotseat":
            where = f"file from the host's computer, {meta.host.name} <{meta.host.email}>"
        else:
            where = f"file from {row.name} <{row.email}>"
        rec["waiting"].append({"power": p, "here": p in s.local, "from": where})
    sent = s.orders_sent()
    if s.power in slot.actors and sent is not None:
        rec["orders_sent"] = len(sent)
    elif s.power in slot.actors:
        rec["actions_taken"] = len(s.taken())
        # 6.0: the second round of a sealed diplomacy only opens the orders committed to in the first
        rec["reveal_round"] = slot.phase is Phase.DIPLOMACY and slot.step != "commit" and bool(st.order_sheet.commitments)
        rec["reloads"] = s.reloads()
        try:
            now, ctx = s.current(), rules_context(s.slot_dice())
            rec["to_do"] = [with_power(t, s.power, rec["plays"]) for t in to_do(now, s.power, ctx)]
            rec["possible"] = possible(now, s.power, ctx)
        except IllegalAction:
            rec["to_do"] = []
        if slot.phase is Phase.LAND and s.power in st.powers:  # 11.2.1, 13.2.2: 'eiapbem land battle-orders'
            from eiapbem.rules.combat.orders import summary

            rec["standing_orders"] = summary(st, s.power)
    group = PHASE_COMMANDS[slot.phase.value]
    mine = [w["power"] for w in rec["waiting"] if w["here"]]
    if mine:
        what = f"'eiapbem {group} --help' lists the commands of this phase, then " if impl else ""
        if slot.phase is Phase.SETUP and impl:
            what = ("'eiapbem setup load default' places the shipped setup ('eiapbem setup --help': piece by piece), then "
                    if not rec["actions_taken"] else  # a setup is loaded onto an empty map only
                    "place the rest ('eiapbem setup --help'; 'eiapbem restart' takes back what is placed, for "
                    "'eiapbem setup load default'), then ")
        if slot.phase is Phase.NAVAL and impl and rec["possible"] == []:
            what = ("nothing to move: end the phase ('eiapbem skip --phase naval --mode continuous' in your next file "
                    "outside the naval phase skips it every month, 13.9): ")
        if slot.phase is Phase.REINFORCEMENT and impl and not rec["to_do"] and not _due(st, mine[0]):
            given = mine[0] == s.power and any(x["phase"] == "reinforcement" for x in rec["skips"])
            what = ("nothing is due this month: give what you want (transfers, leaders, the move order) and end the "
                    "phase"
                    + (" ('eiapbem skip --phase reinforcement --mode continuous' passes this phase while nothing is "
                       "due, 13.9)" if not declared_on_this_month(st, mine[0]) and not given else "") + ": ")
        if slot.phase is Phase.DIPLOMACY and slot.step != "commit" and st.order_sheet.commitments:
            what = "no new orders in the reveal round (6.0): "  # round 2 only opens the sealed orders
        who = "" if len(rec["plays"]) == 1 else (f" --power {mine[0]}" if len(mine) == 1 else " --power POWER")
        try:
            now_state = s.current() if s.power in slot.actors else st
        except IllegalAction:
            now_state = st
        tips = round_savers(now_state, mine[0], who) if len(mine) == 1 else []
        if tips:  # "..., then " or "...: " (the end of the phase said next) gives way to the tips
            what = (what.removesuffix(", then ") + "; " if what.endswith(", then ") else
                    what.removesuffix(": ") + "; " if what.endswith(": ") else what) \
                + "to save rounds of mail, " + "; ".join(tips) + "; then "
        if slot.phase is Phase.LAND and mine == [s.power] and not rec["to_do"]:
            try:  # 10.4.3, 13.5.2: an enemy city left empty is taken by a move into it (not said anywhere before);
                # 11.4.1: a siege laid is not an assault, which is an order of its own (nothing said after 'besiege')
                ctx = rules_context(s.slot_dice())
                cities = empty_cities(now_state, s.power, ctx) + assaults_open(now_state, s.power, ctx)
            except IllegalAction:
                cities = []
            if cities:
                what = cities[0] + "; " + what
        if rec["to_do"] and s.power in mine and slot.phase is not Phase.SETUP:
            # end-phase is refused (or asks) before these: name the first (the setup's shipped one meets them all)
            what = f"first {rec['to_do'][0]}; then "
        rec["next"] = f"{', '.join(mine)} to play: {what}'eiapbem end-phase{who}'"
        if len(mine) == 1:  # every command named, with --power in a folder that plays several
            rec["next"] = with_power(rec["next"], mine[0], rec["plays"])
    elif waiting:
        rec["next"] = "when their files arrive, put them in commin/ and run 'eiapbem load'"
    rec["battles"] = s.battle_lines()
    # A battle of another folder asking this player, or one of this player's waiting for the other's reply,
    # comes before end-phase (4.2.7): end-phase is refused until the reply is in.
    waits = [(bid, f) for bid, f in s.fights().items() if f.out and f.defender not in s.local]
    if waits:
        from .battles import file_name

        bid, f = waits[0]  # the reply is loaded, under its own name, not the question sent (4.2.7)
        rec["awaiting_reply"] = POWER_NAMES[f.defender]  # "Possible now" said end-phase, which is refused till then
        rec["next"] = (f"send battles/{f.name} to {POWER_NAMES[f.defender]} and wait for the reply; then put it in "
                       f"battles/ and run 'eiapbem load battles/{file_name(s.game, f.area, bid, 'reply')}' (the phase "
                       "cannot end before, 4.2.7)")
    replied = [(bid, e) for bid, e in s.exchange.book.answer.items()
               if e.power == s.power and e.sent and not e.over and e.attacker not in s.local]
    if replied:  # the defender's reply is out: the next file is the attacker's battle file, not a turn file
        from .battles import file_name

        bid, e = replied[0]
        rec["next"] = (f"send your reply battles/{e.name} to {POWER_NAMES[e.attacker]}; then load what "
                       f"{POWER_NAMES[e.attacker]} sends: its next battle file in battles/ ('eiapbem load battles/"
                       f"{file_name(s.game, e.area, bid, 'question')}'), or its turn file in commin/ ('eiapbem load')")
    ask = answer_hint(s.battle_questions(), [s.power])
    if ask:
        rec["next"] = ask
    # The questions of the slot so far (a battle started by this power's actions waits in them).
    try:
        pend = list((s.current() if s.power in slot.actors else st).pending.values())
    except IllegalAction:
        pend = list(st.pending.values())
    # A question of another folder's battle (4.2.7) waits for this player too: "none" beside a Next line naming it
    # misled the defender.
    pend += [d for d in s.battle_questions() if d.id not in {x.id for x in pend}]
    rec["pending"] = [{"id": d.id, "power": d.power, "kind": d.kind, "options": list(d.options)} for d in pend]
    done = tuple(f"{bid}/" for bid, _ in replied)  # answered by the reply sent: not asked again
    ask = answer_hint([d for d in pend if not d.id.startswith(done)] if done else pend, list(s.local))
    if ask:
        rec["next"] = ask  # a question of this folder's comes before anything else of the slot
    rec["not_implemented"] = [str(p) for p in Phase if not engine.phase_implemented(p)]
    rec["partly_built"] = [{"phase": str(p), "missing": engine.phase_gaps(p)} for p in Phase
                           if engine.phase_implemented(p) and engine.phase_gaps(p)]
    from .forks import status_lines as fork_lines
    from .inbox import behind_sentence

    rec["forks"] = fork_lines(s)  # forks this folder set aside (issue 20)
    rec["mail"] = []
    if (s.home / "mail" / "sent.json").is_file():  # files that bounced, until sent again (issue 32)
        from .mail_bounces import status_lines as mail_lines

        rec["mail"] = mail_lines(s.home, meta)
    rec["behind"] = behind_sentence(s)  # a save older than the folder's own files (issue 29)
    from .upgrade import status_line as release_line

    rec["release"] = release_line(s)  # a game of an older release than this eiapbem (issue 29)
    if rec["release"]:
        rec["next"] = rec["release"]
    if rec["behind"]:
        rec["next"] = "run 'eiapbem rebuild' before anything else (your save is older than this folder's files)"
    return rec


def skip_settings(state: Any, power: str | None) -> list[dict]:
    """``power``'s phase skip settings (13.9), each with what it does and the command that switches it off (None
    when a setting to skip once is used before the power may give another), and ``when``: the slot that takes it."""
    from eiapbem.rules.model import Phase

    if not power or power not in state.powers:
        return []
    out = []
    nxt, spent = _next_setting_slot(state, power)
    from eiapbem.rules import skips

    for phase in sorted(skips.SKIPPABLE_PHASES, key=str):
        mode = skips.setting(state, power, phase)  # with the orders of a simultaneous slot given so far
        if mode is None:
            continue
        if phase is Phase.REINFORCEMENT:
            what = ("skipped while nothing is due (13.9.1 plays it in a month reinforcements are ready)"
                    if mode == "continuous" else "skipped once, unless reinforcements are ready then (13.9.1)")
        else:
            what = "skipped every month" if mode == "continuous" else "skipped once"
        gone = mode == "once" and phase in spent
        if gone:  # the command would come too late: the setting is used before the power may give another
            what += f", passing {power}'s {phase} slot of {state.date.name} before {power} can change it"
        stored = state.powers[power].skips.get(phase)
        if stored is None or stored.value != mode:
            what += " (an order of this phase, set when it resolves)"
        out.append({"phase": str(phase), "mode": mode, "text": f"{phase} phase {what}",
                    "off": None if gone else f"eiapbem skip --phase {phase} --mode off", "when": nxt})
    return out


def _next_setting_slot(state: Any, power: str) -> tuple[str | None, set]:
    """The phase of ``power``'s next slot this month that takes a setting (None: this one, or next month's), and the
    phases whose slots of ``power`` a setting skips before it (13.9). A reveal round of orders sealed before takes
    none (6.0): "in your next slot" sent a player sealed ahead to a round that refuses it."""
    from eiapbem.rules import sequence
    from eiapbem.rules.engine import sealed_already
    from eiapbem.rules.model import Phase
    from eiapbem.rules.model.slot import ORDERS

    slot = state.slot
    spent: set = set()
    if slot is None or power in slot.actors and not sealed_already(state, power):
        return None, spent
    plan = sequence.month_plan(state.date, sequence.choices_from_state(state))
    at = next((i for i, e in enumerate(plan) if e.slot.same_place(slot)), None)
    if at is None:
        return None, spent
    for e in plan[at + 1:]:
        if e.skipped and e.slot.power == power:
            spent.add(e.slot.phase)
        sealed = e.slot.phase is Phase.DIPLOMACY and e.slot.step == ORDERS and power in state.order_sheet.commitments
        if not e.skipped and power in e.slot.actors and not sealed:
            return str(e.slot.phase), spent
    return None, spent


def empty_cities(state: Any, power: str, ctx: Any) -> list[str]:
    """The enemy cities ``power``'s corps stand next to, in the same area, that a move into the city takes
    (10.4.3, 13.5.2): an ungarrisoned city, or one whose defenders a battle has just removed (11.1.1). Each with the
    command as the player types it."""
    from eiapbem.core.errors import EiaError
    from eiapbem.rules import engine, relations
    from eiapbem.rules.control import city_power
    from eiapbem.rules.land.movement import MoveUnit
    from eiapbem.rules.model import Corps, LocationKind

    out: list[str] = []
    seen: set[str] = set()
    for u in state.units.values():
        if not isinstance(u, Corps) or u.location.kind is not LocationKind.AREA or u.location.site in seen \
                or relations.unit_power(state, u) != power:
            continue
        area = u.location.site
        holder = city_power(state, ctx, area)
        if holder is None or holder == power or not relations.at_war(state, power, holder):
            continue
        try:
            engine.verify_action(state, power, MoveUnit(unit=u.id, path=area, city=True), ctx)
        except EiaError:
            continue
        seen.add(area)
        out.append(f"the city of {area} is empty: 'eiapbem land move --unit {u.id} --path {area} --city' takes it "
                   "(10.4.3, 13.5.2)")
    return out


def assaults_open(state: Any, power: str, ctx: Any) -> list[str]:
    """The cities ``power``'s corps besiege that it may assault now (11.4.1), each with the command as the player
    types it: laying a siege is not an assault, which is an order of its own, once a phase."""
    from eiapbem.core.errors import EiaError
    from eiapbem.rules import engine, relations
    from eiapbem.rules.land.sieging import Assault
    from eiapbem.rules.model import Corps, LocationKind

    areas = sorted({u.location.site for u in state.units.values() if isinstance(u, Corps) and u.besieging
                    and u.location.kind is LocationKind.AREA and relations.unit_power(state, u) == power})
    out: list[str] = []
    for area in areas:
        try:
            engine.verify_action(state, power, Assault(area=area), ctx)
        except EiaError:
            continue
        out.append(f"your corps besiege the city of {area}: 'eiapbem land assault --area {area}' storms it this phase "
                   "(11.4.1; without it the siege goes on)")
    return out


def declared_on_this_month(state: Any, power: str) -> list[str]:
    """The powers that declared war on ``power`` this month: every skip setting of ``power`` is cancelled, and one
    given again is cancelled when the slot ends (13.9.1, 000:2738)."""
    from eiapbem.rules import relations

    wars = [relations.war_with(state, power, q) for q in relations.enemies(state, power)]
    return sorted({d for w in wars if w is not None and w.since == state.date and power not in w.declared_by
                   and not w.before_game for d in w.declared_by})


def skips_cancelled(state: Any, power: str | None) -> str | None:
    """Why ``power`` has no phase skip setting left this month, when a declaration of war on it has just cancelled
    them all (13.9.1, 000:2738): the setting vanished from ``status`` without a word. None otherwise."""
    from eiapbem.core.powers import POWER_NAMES

    if not power or power not in state.powers or state.powers[power].skips:
        return None
    by = declared_on_this_month(state, power)
    if not by:
        return None
    names = [POWER_NAMES.get(p, p) for p in by]
    who = (f"{names[0]}'s declaration" if len(names) == 1
           else f"the declarations of {', '.join(names[:-1])} and {names[-1]}")
    return (f"none: {who} of war this month cancelled every setting of {power} (13.9.1), and cancels one "
            "given again this month; from next month's diplomacy phase, 'eiapbem skip --phase reinforcement --mode "
            "continuous' skips the reinforcement phase again while nothing is due")


def round_savers(state: Any, power: str, who: str = "") -> list[str]:
    """The tools that save rounds of mail which apply to ``power``'s file in play (docs/decisions.md "Pace of
    play"), each with its command: next month's diplomacy sealed in the last file of the month, and a naval phase
    skipped while the fleets stay in port (13.9), in a file written before that phase."""
    from eiapbem.rules import skips
    from eiapbem.rules.model import Fleet, LocationKind, Phase

    slot = state.slot
    if slot is None or power not in state.powers or (not slot.simultaneous and slot.power != power):
        return []
    out = []
    last = slot.phase is Phase.ECONOMIC or slot.phase is Phase.LAND
    if last and not state.options.one_round_diplomacy and state.date < state.end \
            and power not in state.order_sheet.commitments:
        out.append(f"'eiapbem end-phase --seal-diplomacy{who}' instead seals next month's diplomacy orders in this file "
                   "(any given before with --next-month; with none, you give none), and that phase takes one round "
                   "instead of two (6.0)")
    fleets = any(isinstance(u, Fleet) and u.nation == power and u.location.kind is not LocationKind.POOL
                 for u in state.units.values())
    if fleets and skips.setting(state, power, Phase.NAVAL) is None and slot.phase is not Phase.NAVAL \
            and not declared_on_this_month(state, power) \
            and not (slot.phase is Phase.DIPLOMACY and slot.step != "commit" and state.order_sheet.commitments):
        month = state.date.next().name if last else state.date.name
        out.append(f"if your fleets stay in port in the naval phase of {month}, 'eiapbem skip --phase naval --mode "
                   f"once{who}' passes your naval slot without a file (13.9)")
    return out


def _due(state: Any, power: str) -> bool:
    from eiapbem.rules.sequence import reinforcements_ready

    return bool(reinforcements_ready(state, power))


def passed_this_month(s: Any) -> list[dict]:
    """The slots of the month in play that no file played: ended by themselves, the rules leaving their power
    nothing to decide (``engine.pass_slot``), or left out by the power's own skip setting (13.9); from the
    game's log, oldest first."""
    from eiapbem.rules.sequence import PASSED

    st = s.state
    month = f"{st.date}/"
    out = []
    for e in s.journal(400):
        if e.kind == PASSED and e.slot.startswith(month):
            out.append({"slot": e.slot, "power": str(e.params.get("power", "")), "phase": str(e.params.get("phase", "")),
                        "reason": str(e.params.get("reason", "")), "text": e.text})
    return out


def to_do(state: Any, power: str, ctx: Any) -> list[str]:
    """What ``power`` must still do before 'eiapbem end-phase' (the rules' obligations), less what end-phase
    does itself: in the sealed diplomacy it writes the commitment of the first round and the reveal of the
    second, which the file must carry (6.0)."""
    from eiapbem.rules import engine
    from eiapbem.rules.model import Phase

    found = list(engine.unmet_obligations(state, power, ctx))
    slot = state.slot
    found += bought_waiting(state, power)
    if found and slot is not None and slot.phase is Phase.DIPLOMACY:
        from eiapbem.rules.diplomacy import sealing

        done_by_end_phase = set(sealing.obligations(state, power, []))
        found = [f for f in found if f not in done_by_end_phase]
    if state.movement_over:  # 11.0: no disembarking once the combats have begun; end-phase asks before
        return found + [f"{c.id} is still aboard {c.location.site} and the movement is over (11.0): 'eiapbem end-phase' "
                        "destroys it (8.6.3), after asking" for c in lost_at_end(state, power)]
    # Before an attack too: the first attack ends the movement (11.0).
    return [f"disembark {c.id} (aboard {c.location.site}): 'eiapbem land disembark --corps {c.id} --area AREA', "
            "or end-phase destroys it (8.6.3)" for c in lost_at_end(state, power)] + found


def bought_waiting(state: Any, power: str) -> list[str]:
    """In ``power``'s reinforcement slot, the counters it (or a free state it runs) bought in an economic phase and
    has still to place, each with the month by which it must be placed: unplaced by then, it goes back to the
    counter pool and must be bought again (12.5.4, 000:2238). Placing is not required, so end-phase does not ask."""
    from eiapbem.rules.model import Corps, Phase
    from eiapbem.rules.reinforcement.common import purchased

    slot = state.slot
    if slot is None or slot.phase is not Phase.REINFORCEMENT or slot.power != power:
        return []
    nations = (power,) + state.free_states(power)
    out = []
    for u in sorted((u for u in state.units.values() if getattr(u, "nation", None) in nations
                     and getattr(u, "placeable_until", None) is not None and purchased(state, u)), key=lambda u: u.id):
        when = ("this month, its last" if u.placeable_until == state.date else f"by {u.placeable_until}")
        how = (f"'eiapbem reinforce place-corps --corps {u.id} --area CITY --source reinforcements --infantry N' (7.2.1)"
               if isinstance(u, Corps) else
               f"'eiapbem reinforce place-fleet --fleet {u.id} --port PORT --source reinforcements --heavy N' (7.1.1)")
        out.append(f"place {u.id}, bought in an economic phase, {when}, or it goes back to the counter pool and must "
                   f"be bought again (12.5.4): {how}")
    return out


def lost_at_end(state: Any, power: str) -> list[Any]:
    """``power``'s corps that end-phase would destroy: still aboard a fleet at the end of its land slot (8.6.3)."""
    from eiapbem.rules.model import Phase
    from eiapbem.rules.naval.transport import left_aboard

    slot = state.slot
    if slot is None or slot.phase is not Phase.LAND or slot.power != power:
        return []
    return left_aboard(state, power)


def supply_before_combat(state: Any, power: str, ctx: Any, *, ending: bool = False) -> tuple[list[str], bool]:
    """What ``power``'s first attack does before its first die (11.0, 000:1606), or the end of its land slot with no
    attack (``ending``, 10.5): its movement ends and each corps is supplied (10.5), by depot or by foraging
    (``supplyphase.supply_preview``). The lines say it corps by corps, with the depots that could still be placed
    instead of a foraging that may cost factors (10.3, 000:1488); the flag is whether there is such a choice to make
    first. Nothing when the movement is already over.  A corps still aboard is named here for an attack only (end-phase
    asks about it itself, 8.6.3)."""
    from eiapbem.rules.land.supplyphase import depot_areas_for, supply_preview
    from eiapbem.rules.model import Phase

    slot = state.slot
    if slot is None or slot.phase is not Phase.LAND or slot.power != power or state.movement_over:
        return [], False
    plan, halves = supply_preview(state, power, ctx)
    aboard = [] if ending else lost_at_end(state, power)
    cut_off = besieged_lines(state, power, ctx)
    if not plan and not aboard and not cut_off:
        return [], False
    lines = [f"Ending the slot ends {power}'s movement and supplies its corps (10.5):" if ending else
             f"The first attack or assault ends {power}'s movement and supplies its corps before any combat (10.5; 11.0, 000:1606):"]
    choice = bool(aboard)
    lines += [f"  {c.id} is still aboard {c.location.site}: it cannot disembark after this attack, and end-phase destroys "
              f"it (8.6.3): 'eiapbem land disembark --corps {c.id} --area AREA' first" for c in aboard]
    for x in plan:
        if x.depot:
            continue
        risk = (f"a roll of 6 costs it {x.worst} factor{'s' if x.worst != 1 else ''}" if x.worst else "no loss possible")
        why = far_from_depots(state, power, ctx, x.corps) if x.why.startswith("no depot of") else x.why
        line = f"  {x.corps} forages: {why}; {risk}"
        if x.worst:
            areas = depot_areas_for(state, power, ctx, x.corps)
            if areas:
                choice = True
                line += (f"; a depot placed first in {' or '.join(areas[:3])} supplies it instead: 'eiapbem land "
                         f"create-depot --area {areas[0]}' (10.3, $1)")
            elif x.why.startswith("no depot of"):
                line += "; no depot placed now would bring it within reach (10.3)"
        lines.append(line)
    depot = [x.corps for x in plan if x.depot]
    if depot:
        lines.append(f"  {', '.join(depot)} {'takes' if len(depot) == 1 else 'take'} depot supply for ${(halves + 1) // 2} "
                     "(10.5.2)")
    return lines + cut_off, choice


def besieged_lines(state: Any, power: str, ctx: Any) -> list[str]:
    """What the end of movement does to ``power``'s forces besieged in a city (10.5.5): they roll against the
    city's supply value, or live off sea supply (10.5.3); said nowhere before, the roll's losses came unannounced."""
    from eiapbem.rules import relations
    from eiapbem.rules.land.supplyphase import besieged, besieged_terms
    from eiapbem.rules.model import Corps, Garrison

    out = []
    sites: dict[str, list[str]] = {}
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if isinstance(u, (Corps, Garrison)) and u.factors.total > 0 and relations.unit_power(state, u) == power \
                and besieged(state, ctx.map, u):
            sites.setdefault(u.location.site, []).append(u.id)
    for area, ids in sorted(sites.items()):
        supply_value, mod, dollars = besieged_terms(state, ctx, power, area)
        if dollars is not None:
            out.append(f"  {', '.join(ids)} besieged in {area}: sea supply for ${dollars} (10.5.3-10.5.4)")
            continue
        worst = max(0, 6 + mod - supply_value)
        out.append(f"  {', '.join(ids)} besieged in {area}: each rolls against the city's supply value {supply_value}"
                   f"{f' {mod:+d} for the factors inside' if mod else ''} (10.5.5); "
                   + (f"a roll of 6 costs each {worst} factor{'s' if worst != 1 else ''}" if worst else "no loss possible"))
    return out


#: How far ``far_from_depots`` looks for the nearest depot of a supply chain (areas).
FAR = 12


def far_from_depots(state: Any, power: str, ctx: Any, corps_id: str) -> str:
    """Why a corps has no depot supply when no depot of ``power``'s chain is within reach (10.5.2, 000:1530): how
    far the nearest one is, and a depot of ``power``'s near it that is in no valid chain (10.3.3), which supplies
    nothing however close. "No depot within 3 areas" said neither, and read as wrong beside a depot in view."""
    from eiapbem.rules import supply
    from eiapbem.rules.land.supplyphase import MAX_SUPPLY_DISTANCE
    from eiapbem.rules.model import Depot, LocationKind

    m = ctx.map
    here = state.units[corps_id].location.site
    far = supply.depot_distance(state, m, power, here, limit=FAR)
    out = (f"the nearest depot of {power}'s supply chain is {far} areas away, beyond the {MAX_SUPPLY_DISTANCE} that "
           "depot supply reaches (10.5.2, 000:1530)" if far is not None else
           f"no depot of {power}'s supply chain lies within {FAR} areas (depot supply reaches {MAX_SUPPLY_DISTANCE}, "
           "10.5.2, 000:1530)")
    near, ring = {here}, {here}
    for _ in range(MAX_SUPPLY_DISTANCE):
        ring = {b for a in ring for b in m.land_neighbours(a)} - near
        near |= ring
    chain = supply.supply_chain(state, m, power)
    loose = sorted((u.location.site, u.id) for u in state.units.values()
                   if isinstance(u, Depot) and u.power == power and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
                   and u.location.site in near and u.location.site not in chain)
    if loose:
        area, depot = loose[0]
        out += (f"; {depot} in {area} is in no valid supply chain (not linked to a supply source, 10.3.3), so it "
                "supplies nothing")
    return out


def peace_terms_in_force(state: Any, power: str | None) -> list[str]:
    """The peace terms still in force on ``power`` (6.4, 15.0): each one's name, for whom, and what it does."""
    if not power:
        return []
    ps = state.powers.get(power)
    if ps is None or not ps.peace_terms:
        return []
    from eiapbem.rules.tables.diplomacy import peace_term_effect

    from .show import peace_term_line

    return [f"{peace_term_line(t)}: {peace_term_effect(t.code, POWER_NAMES[t.victor], POWER_NAMES[power])}"
            for t in ps.peace_terms.values()]


def possible(state: Any, power: str, ctx: Any) -> list[dict]:
    """What the rules offer ``power`` now besides ending its slot (``engine.possible_kinds``: standing orders and
    other settings left out): each kind with the command that takes it, in the registry's order."""
    from eiapbem.rules import engine

    slot = state.slot
    group = PHASE_COMMANDS[slot.phase.value] if slot is not None else ""
    out = []
    for kind in engine.possible_kinds(state, power, ctx):
        cls = engine.action_kinds()[kind].cls
        command = "eiapbem answer" if kind == "decision.answer" else f"eiapbem {group} {getattr(cls, 'COMMAND', kind)}"
        out.append({"kind": kind, "command": command})
    return out


def answer_hint(pending: Any, powers: Any) -> str | None:
    """The command that answers the first question put to one of ``powers``, or None when there is none."""
    for d in pending:
        if d.power in powers:
            due = int((getattr(d, "context", None) or {}).get("remaining") or 0) if d.kind == "battle.casualties" else 0
            several = f"; or all {due} losses in one answer: UNIT/TYPE=N,UNIT/TYPE=N adding up to {due} (11.2.9)" if due > 1 else ""
            siege = d.id.split(":")[1] if d.kind.startswith("siege.") and d.id.count(":") >= 2 else None
            return (f"{d.power} to answer {d.kind} {d.id}: 'eiapbem answer {d.id} CHOICE' with CHOICE one of "
                    f"{', '.join(d.options)}" + several + (f" ('eiapbem battle report {d.id.split('/')[0]}' shows the battle"
                                                 + (", 'eiapbem answer --help' the chits)" if d.kind == "battle.chit" else ")")
                                                 if d.kind.startswith("battle") else "")
                    + (f" ('eiapbem battle report {siege}' shows the siege, 11.4)" if siege else "")
                    + (_commander_ratings(d.options) if d.kind == "battle.commander" else ""))
    return None


def _commander_ratings(leaders: Any) -> str:
    """The candidates of a commander choice with their ratings (13.8.6, 13.8.7)."""
    from eiapbem.client.show import ratings_text
    from eiapbem.data.context import world_data

    return "; ratings: " + "; ".join(f"{lid} {ratings_text(world_data(), lid)}" for lid in leaders)


def status_lines(s: Any, rec: dict | None = None) -> list[str]:
    """``eiapbem status`` as text (with the sealed diplomacy phase's rounds and the month's results, 6.0);
    ``rec``: ``status_record(s)`` when already made."""
    out = render(status_record(s) if rec is None else rec)
    extra = diplomacy_lines(s)
    at = out.index("Last log lines:") if "Last log lines:" in out else len(out)
    return out[:at] + extra + out[at:]


def render(rec: dict) -> list[str]:
    out = [f"Game {rec['game']} ({rec['scenario']}); this folder plays {', '.join(rec['plays']) or 'no power'}"
           + (" and hosts it" if rec["hosts"] else "")]
    if rec["over"]:
        out.append(f"The game is over ({rec['date_name']}).")
        return out
    out.append(f"Date: {rec['date_name']}   (state {rec['state_hash'][:16]}: equal on every player's computer when in sync)")
    out.append(f"Phase: {rec['phase']}" + ("" if rec["phase_implemented"] else " (not implemented yet: only end-phase is accepted)"))
    if rec["simultaneous"]:
        out.append(f"Turn: every power gives its orders at once ({rec['slot']})")
    else:
        out.append(f"Turn: {POWER_NAMES[rec['turn_of']]} ({rec['slot']})")
    out.extend(rec.get("forks", []))
    out.extend(rec.get("mail", []))
    if rec.get("behind"):
        out.append("Save: " + rec["behind"][0].upper() + rec["behind"][1:])
    if rec.get("release"):
        out.append("Release: " + rec["release"][0].upper() + rec["release"][1:])
    if rec.get("skips"):  # the setting goes in the power's own file: out of its slot the command is refused
        here = any(w["here"] for w in rec["waiting"])
        out.append(f"Phase skipping of {rec['power']} (13.9): " + "; ".join(
            x["text"] if not x["off"] else f"{x['text']} ('{x['off']}' in your {x['when']} slot ends it)" if x["when"]
            else f"{x['text']} ('{x['off']}' ends it)" if here else f"{x['text']} ('{x['off']}' in your next slot ends it)"
            for x in rec["skips"]))
    elif rec.get("skips_cancelled"):
        out.append(f"Phase skipping of {rec['power']} (13.9): {rec['skips_cancelled']}")
    if rec.get("peace_terms"):
        out.append(f"Peace terms in force on {POWER_NAMES[rec['power']]} (6.4): " + "; ".join(rec["peace_terms"]))
    if rec["computer"]:
        out.append("Played by the computer (every client plays their turns itself): "
                   + ", ".join(f"{c['power']} ({c['level']})" for c in rec["computer"]))
    if rec["waiting"]:
        out.append("Waiting for: " + ", ".join(f"{w['power']} ({w['from']})" for w in rec["waiting"]))
    if rec.get("passed"):
        groups: list[tuple[str, str, list[str]]] = []  # consecutive slots of one phase and reason, said once
        for x in rec["passed"]:
            if groups and groups[-1][:2] == (x["phase"], x["reason"]):
                groups[-1][2].append(x["power"])
            else:
                groups.append((x["phase"], x["reason"], [x["power"]]))
        out.append("Passed this month without a file (every client plays them alike): "
                   + "; ".join(f"{' '.join(ps)} {ph} ({_why(why)})" for ph, why, ps in groups))
    p = rec["power"]
    if rec["orders_sent"] is not None:
        n = rec["orders_sent"]
        out.append(f"{p}: orders sent ({n} order{'s' if n != 1 else ''}); the phase resolves when every power's are in")
    elif rec["actions_taken"] is not None:
        n = rec["actions_taken"]
        if rec.get("reveal_round"):
            out.append(f"{p}: the orders committed to in round 1 are revealed by 'eiapbem end-phase' (no new orders)")
        else:
            out.append((f"{p}: {n} order{'s' if n != 1 else ''} given in this phase so far ('eiapbem end-phase' sends "
                        "them)" if rec["simultaneous"] else f"{p}: {n} action{'s' if n != 1 else ''} taken in this slot "
                        "so far") + (f", {rec['reloads']} reload(s)" if rec["reloads"] else ""))
        out.append("To do before end-phase: " + ("; ".join(rec["to_do"]) if rec["to_do"] else "nothing"))
        if rec.get("possible") is not None:
            out.append("Possible now: " + (", ".join(p["command"].split(" ", 1)[1] for p in rec["possible"])
                                           or (f"nothing until {rec['awaiting_reply']}'s battle reply is loaded (4.2.7)"
                                               if rec.get("awaiting_reply") else
                                               "nothing but 'eiapbem end-phase' (the rules offer no other choice)")))
    if rec.get("standing_orders"):
        out.append("Your battle standing orders ('eiapbem land battle-orders' sets them): " + rec["standing_orders"])
    if rec["next"]:
        out.append("Next: " + rec["next"])
    out.extend(rec["battles"])
    out.append("Pending decisions: " + (", ".join(f"{d['id']} for {d['power']} ({d['kind']}: {'/'.join(d['options'])})"
                                                  for d in rec["pending"]) or "none"))
    if rec["not_implemented"]:
        out.append("Not implemented yet: " + ", ".join(rec["not_implemented"]) + " (these phases accept only end-phase)")
    if rec["partly_built"]:
        out.append("Partly built: " + "; ".join(f"{g['phase']} (not yet: {g['missing']})" for g in rec["partly_built"]))
    if rec["log"]:
        out.append("Last log lines:")
        out.extend(f"  [{e['slot']}] {e['text']}" for e in rec["log"])
    return out


def _why(reason: str) -> str:
    if reason == "no-choice":
        return "nothing to decide"
    return "skipped by its own setting, 13.9" + (", continuous" if reason == "skip-continuous" else "")


def diplomacy_lines(s: Any) -> list[str]:
    """The sealed diplomacy phase's rounds, and this month's diplomacy results from the reinforcement phase on (6.0:
    revealed at its start; shown the rest of the month, since a player's reinforcement slot may be skipped, 13.9)."""
    from eiapbem.rules.model import Phase

    st = s.state
    slot = st.slot
    if slot is None:
        return []
    if slot.phase is Phase.DIPLOMACY and slot.step == "commit" and s.power in st.order_sheet.commitments:
        return [f"Sealed diplomacy, round 1 of 2: {s.power}'s orders were sealed ahead in its last file of "
                f"{st.date.previous().name}, so it plays no commit round; round 2 reveals them"]  # 'give your orders' misled
    if slot.phase is Phase.DIPLOMACY and slot.step == "commit":
        return ["Sealed diplomacy, round 1 of 2: give your orders, then 'eiapbem end-phase' sends only a commitment "
                "(the orders stay in your save); round 2 reveals them"]
    if slot.phase is Phase.DIPLOMACY and st.order_sheet.commitments:
        return ["Sealed diplomacy, round 2 of 2: 'eiapbem end-phase' reveals the orders you committed to (no new orders)"]
    if slot.phase is not Phase.DIPLOMACY:  # the rest of the month: a player whose reinforcement slot was skipped
        done = [e.text for e in s.journal(200) if e.slot.startswith(f"{st.date}/diplomacy/")]  # sees them at his next
        if done:
            return [f"Diplomacy results of {st.date.name}:"] + [f"  {t}" for t in done]
    return []
