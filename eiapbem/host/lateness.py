"""The host's lateness ladder, applied by its unattended ``eiapbem mail sync`` (issue 22 item 5).

A house rule of the playgroup, not the manual's: the manual gives the host the
tools (skip a player, let the computer play a turn, replace a player; 4.2.8,
``000:202-206``) but no timetable.  The ladder's numbers are set by a logged
admin act (``rules.admin.HouseRules``: ``eiapbem admin house-rules`` or
``eiapbem new --house-rules``) and read back from the game log, so a backup or
a new host keeps them.  For each human client whose file the game awaits:

1. after ``remind`` hours, a reminder mail to that player;
2. after ``remind_all`` hours, a reminder to every player;
3. after ``ai_play`` hours, the computer plays the slot (``AiPlay``, as ``admin ai-play``);
4. once a player has missed ``offer_after`` slots that way, the seat is offered to a replacement.

Every step is an admin file with a ``LateNotice`` act: it stands in every
player's game log and its mail (the draft, with the step in the body) goes to
every player with the next ``mail send``.  In a simultaneous slot an admin file
must wait until every order is in (docs/file-format.md 6), so there the step is
mailed to everyone but not written in the game log.

The clock is the host's wall clock, or ``EIAPBEM_NOW`` (``YYYY-MM-DD HH:MM``,
UTC) for tests; the rules core never sees it.  When each wait began and which
steps were taken is kept in ``mail/ladder.json`` of the host's folder.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eiapbem.client.mail import notice_draft, set_draft_body
from eiapbem.client.mail_config import Ledger, mail_dir
from eiapbem.client.session import Session
from eiapbem.core.errors import IllegalAction
from eiapbem.pbem.email import Person, subject_for
from eiapbem.rules import admin as radmin
from eiapbem.rules.model import LogEntry

from .admin import require_host
from .clock import NOW_ENV, BadClock, hours_since, now, parse_time, show, waited_lines

__all__ = ["NOW_ENV", "BadClock", "now", "parse_time", "show"]

STEPS = ("reminder", "reminder-all", "ai-play")


@dataclass(frozen=True)
class HouseRules:
    remind: int
    remind_all: int
    ai_play: int
    offer_after: int

    def limit(self, step: str) -> int:
        return {"reminder": self.remind, "reminder-all": self.remind_all, "ai-play": self.ai_play}[step]


def house_rules(s: Session) -> HouseRules | None:
    """The ladder in force: the last house-rules act in the game log, if any."""
    return _read(s).rules


def parse_rules(text: str) -> HouseRules:
    """``24,48,72,2`` (hours, hours, hours, slots) as given on the command line."""
    parts = text.split(",")
    if len(parts) != 4 or not all(p.strip().isdigit() for p in parts):
        raise IllegalAction(f"{text!r} is not a lateness ladder; give four whole numbers REMIND,REMIND_ALL,AI_PLAY,OFFER_AFTER "
                            "(hours, hours, hours, missed slots; 0 turns a step off), e.g. 24,48,72,2")
    r = HouseRules(*(int(p) for p in parts))
    steps = [h for h in (r.remind, r.remind_all, r.ai_play) if h]
    if steps != sorted(steps):
        raise IllegalAction("the ladder's hours must grow: the reminder first, then the reminder to all, then the computer's play")
    return r


def set_house_rules(s: Session, r: HouseRules) -> Path:
    """The logged admin act that sets the ladder (an admin file to every player)."""
    require_host(s)
    return s.write_admin([radmin.HouseRules(r.remind, r.remind_all, r.ai_play, r.offer_after)])


def missed(s: Session, power: str) -> tuple[int, bool]:
    """Slots of ``power`` the computer played by the ladder since its player last changed, and whether its seat was offered."""
    return dict(_read(s).missed).get(power, (0, False))


def _int(value: object) -> int:
    """A log parameter read as a whole number (``int(value)`` for a number or a numeral, as before)."""
    if isinstance(value, (int, str)):
        return int(value)
    raise TypeError(f"a log parameter {value!r} is not a number")


@dataclass(frozen=True)
class _Reading:
    """What the ladder takes from the game log up to a line: the rules in force, and per power (missed, offered)."""

    rules: HouseRules | None = None
    missed: tuple[tuple[str, tuple[int, bool]], ...] = ()

    def taking(self, e: LogEntry) -> "_Reading":
        """This reading with one more line of the log (one of ``_KINDS``)."""
        p = dict(e.params)
        if e.kind == radmin.HouseRules.KIND:
            rules = HouseRules(_int(p["remind"]), _int(p["remind_all"]), _int(p["ai_play"]), _int(p["offer_after"]))
            return _Reading(rules, self.missed)
        power = p.get("power")
        if not isinstance(power, str):
            return self
        missed = dict(self.missed)
        n, offered = missed.get(power, (0, False))
        if e.kind == radmin.ReplacePlayer.KIND:
            n, offered = 0, False
        elif p.get("step") == "ai-play":
            n = max(n, _int(p.get("missed", 0)))
        elif p.get("step") == "seat-offered":
            offered = True
        missed[power] = (n, offered)
        return _Reading(self.rules, tuple(sorted(missed.items())))


#: The only lines of the log the ladder reads (every other line is passed over without being decoded).
_KINDS = frozenset((radmin.HouseRules.KIND, radmin.LateNotice.KIND, radmin.ReplacePlayer.KIND))
#: This process's last reading of a saved journal: (lines read, the last of them, the reading).  A ``mail sync
#: --every`` round or ``admin status`` then reads only the lines added since; the last line is recognised by
#: identity (the journal only grows by new tuples of the same line objects), so another journal (a backup, a
#: rewind, another game) is read from its start.
_memo: list[tuple[int, Any, _Reading]] = []


def _read(s: Session) -> _Reading:
    """The ladder's reading of the game log (``s.journal()``): only lines of ``_KINDS`` are decoded, and only those
    added since this process last read the same journal."""
    lines = s.journal_lines
    n, last, reading = _memo[0] if _memo else (0, None, _Reading())
    if n > len(lines) or (n and lines[n - 1] is not last):
        n, reading = 0, _Reading()
    for o in lines[n:]:
        if isinstance(o, dict) and o.get("kind") in _KINDS:
            reading = reading.taking(LogEntry.from_obj(o, "the journal"))
    if lines:
        _memo[:] = [(len(lines), lines[-1], reading)]
    for e in s.state.log:  # lines of the state in memory not yet saved (``Session.journal``)
        if e.kind in _KINDS:
            reading = reading.taking(e)
    return reading


def _late(s: Session) -> list[tuple[str, str]]:
    """The awaited slots the ladder applies to: those of human email clients (not the host's own powers)."""
    players = s.meta.players
    return [(p, slot) for p, slot in s.awaited() if players[p].type == "client" and p not in s.local]


def _ledger(s: Session) -> Ledger:
    return Ledger(mail_dir(s.home) / "ladder.json", {})


def _host_person(s: Session) -> Person:
    h = s.meta.host
    return Person(h.name, h.email)


def _everyone(s: Session) -> list[Person]:
    players = s.meta.players
    return [s.person(p) for p in sorted(players) if players[p].type in ("client", "host") and p not in s.local]


def _announce(s: Session, acts: list, text: str, fallback_name: str, in_log: bool = True) -> str:
    """An admin file carrying the step (to every player's log and mailbox), or, when none may be written now, a mail to all."""
    if not in_log:
        notice_draft(s.home, s.game, fallback_name, _host_person(s), _everyone(s), subject_for(s.game, "late player"),
                     text + "\n")
        return "mailed to all (reminders by mail only: not in the game log)"
    try:
        path = s.write_admin(acts)
    except IllegalAction as err:
        notice_draft(s.home, s.game, fallback_name, _host_person(s), _everyone(s), subject_for(s.game, "late player"),
                     text + "\n\nThis step could not be written in the game log now: " + str(err) + "\n")
        return f"mailed to all (not in the game log yet: {err})"
    draft = path.with_name(path.name + ".eml")
    if draft.is_file():
        set_draft_body(draft, text + "\n\nThe attached admin file writes this in everyone's game log: put it in commin/ "
                              "and run 'eiapbem load', or let 'eiapbem mail fetch' do it.\n")
    return f"admin file commout/{path.name} to all"


def apply(s: Session, clock: datetime.datetime, level: str = "ai-medium", *, log_reminders: bool = True) -> list[str]:
    """Take every ladder step now due; one line each.  Does nothing without house rules.

    ``log_reminders=False`` mails the two reminders without writing them in the chain, so the late
    player's slot keeps its predecessor and its dice (docs/SECURITY.md); the computer's play is logged always.
    """
    require_host(s, edit=False)
    rules = house_rules(s)
    if rules is None:
        return []
    ledger = _ledger(s)
    g = ledger.data.setdefault(s.game, {"waits": {}})
    late = _late(s)
    keys = {f"{slot}|{p}" for p, slot in late}
    g["waits"] = {k: v for k, v in g["waits"].items() if k in keys}
    lines = []
    for p, slot in late:
        w = g["waits"].setdefault(f"{slot}|{p}", {"since": show(clock), "done": []})
        ledger.write()
        hours = hours_since(w["since"], clock)
        for step in STEPS:
            limit = rules.limit(step)
            if limit <= 0 or hours < limit or step in w["done"]:
                continue
            lines.append(f"{p} ({slot}), {hours} h late: {_step(s, p, slot, step, hours, rules, level, log_reminders)}")
            w["done"].append(step)
            ledger.write()
            if step == "ai-play":
                break
    return lines


def _hours(n: int) -> str:
    return "1 hour" if n == 1 else f"{n} hours"


def tell_late(s: Session, late: list) -> list[str]:
    """Tell each player whose file came after the host's act took its slot, once per file: a mail to that player.

    ``late`` holds (file name, author, slot, sentence) from ``client.mail.load_fetched``.  The file itself is not
    mailed on: the player's own folder withdraws its draft when it loads the host's act (``client.mail_send``).
    """
    if not late:
        return []
    ledger = _ledger(s)
    g = ledger.data.setdefault(s.game, {"waits": {}})
    told = g.setdefault("told_late", [])
    lines = []
    for name, author, slot, _ in late:
        if name in told or author not in s.meta.players:
            continue
        who = s.person(author)
        tag = slot.replace("/", "_")
        notice_draft(s.home, s.game, f"{s.game}_toolate_{tag}_{author}.eml", _host_person(s), [who],
                     subject_for(s.game, f"too late for {slot}"),
                     f"{who.name}, your file {name} for {slot} reached the host after the host's act had taken that "
                     "slot (the house rules for late players, or the host's skip). It is not used: the game went on from "
                     "the host's admin file, which your 'eiapbem mail sync' loads; your folder then follows it by "
                     "itself. Nothing is lost but that slot's orders.\n")
        told.append(name)
        ledger.write()
        lines.append(f"{author} ({slot}): {name} came after the host's act took the slot; {author} is told by mail")
    return lines


def _step(s: Session, p: str, slot: str, step: str, hours: int, rules: HouseRules, level: str, in_log: bool) -> str:
    name = s.person(p)
    tag = slot.replace("/", "_")
    if step == "reminder":
        notice_draft(s.home, s.game, f"{s.game}_reminder_{tag}_{p}.eml", _host_person(s), [name],
                     subject_for(s.game, f"reminder {slot}"),
                     f"{name.name}, our game {s.game} has waited {_hours(hours)} for your file for {slot}.\n"
                     f"The house rules: everyone is reminded after {rules.remind_all} h, the computer plays the slot "
                     f"after {rules.ai_play} h (0 = never).\n")
        text = f"{s.game}: {name.name} ({p}) was reminded that {slot} has waited {hours} h for their file."
        return "reminder mailed; " + _announce(s, [radmin.LateNotice(p, "reminder", slot, hours)], text,
                                               f"{s.game}_late_{tag}_{p}_reminder.eml", in_log)
    if step == "reminder-all":
        text = f"{s.game}: {slot} has waited {hours} h for {name.name} ({p}). Everyone is reminded."
        return _announce(s, [radmin.LateNotice(p, "reminder-all", slot, hours)], text, f"{s.game}_late_{tag}_{p}_all.eml",
                         in_log)
    n, offered = missed(s, p)
    acts: list = [radmin.LateNotice(p, "ai-play", slot, hours, n + 1), radmin.AiPlay(p, level)]
    text = f"{s.game}: {slot} waited {hours} h for {name.name} ({p}); by the house rules the computer ({level}) played the slot."
    if rules.offer_after and n + 1 >= rules.offer_after and not offered:
        acts.append(radmin.LateNotice(p, "seat-offered", slot, hours, n + 1))
        text += (f" {p} has now missed {n + 1} slot(s): the seat is offered to a replacement player "
                 "(the host replaces the player with 'eiapbem admin replace').")
    try:
        path = s.write_admin(acts)
    except IllegalAction as err:
        return f"the computer cannot play this slot now: {err}"
    draft = path.with_name(path.name + ".eml")
    if draft.is_file():
        set_draft_body(draft, text + "\n\nThe attached admin file carries the computer's play: load it as usual.\n")
    return f"the computer played the slot; admin file commout/{path.name} to all"


def status_lines(s: Session, clock: datetime.datetime | None = None) -> list[str]:
    """Where each late player stands on the ladder (for ``eiapbem admin status``)."""
    return waited_lines(ladder_rows(s), clock or now())


def ladder_rows(s: Session) -> list:
    """``status_lines`` but the hours waited (``clock.waited_lines``' rows): what does not depend on the clock."""
    rules = house_rules(s)
    if rules is None:
        return ["Lateness ladder: none (set one with 'eiapbem admin house-rules REMIND,REMIND_ALL,AI_PLAY,OFFER_AFTER')"]
    out: list = [f"Lateness ladder: reminder after {rules.remind} h, to all after {rules.remind_all} h, the computer plays after "
                 f"{rules.ai_play} h, seat offered after {rules.offer_after} missed slot(s) (0 = off); applied by 'eiapbem mail sync'"]
    g = _ledger(s).data.get(s.game, {"waits": {}})
    for p, slot in _late(s):
        w = g["waits"].get(f"{slot}|{p}")
        n, offered = missed(s, p)
        extra = f"; {n} slot(s) missed" + (", seat offered" if offered else "") if n else ""
        if w is None:
            out.append(f"  {p} ({slot}): not yet seen waiting by 'eiapbem mail sync'{extra}")
            continue
        since = parse_time(w["since"])
        nxt = next((st for st in STEPS if rules.limit(st) > 0 and st not in w["done"]), None)
        due = f"next: {nxt} at {show(since + datetime.timedelta(hours=rules.limit(nxt)))}" if nxt else "no step left"
        done = ", ".join(w["done"]) or "no step yet"
        out.append({"before": f"  {p} ({slot}): waiting since {show(since)} ", "since": show(since),
                    "after": f"; done: {done}; {due}{extra}"})
    return out

