"""What the page asks of the view, answered by the client's documents and operations (no HTTP here).

``View`` holds one power's game: the identity unlocked once (``eiapbem view`` asks the password, as
``eiapbem shell`` does) and the session opened with it.  Every answer comes from the layer below:

- reading: the ``--json`` documents of ``client/documents.py`` (``status``, ``map``, ``log``, ``area``, ``unit``,
  ``power``, ``pool``, ``units``, ``reach``, ``battles``, ``battle`` and its text, ``economy``, ``history``),
  the orders' forms of ``client/actionforms.py``, and the map's geometry (``present/svgmap.py``);
- acting: the session's public operations, as the CLI calls them: ``act`` (an order built from a form by
  ``actionforms.from_form``, or ``AnswerDecision``), ``restart``, ``end_phase``, ``load_all``, and the shipped
  setup loaded as ``eiapbem setup load default`` loads it (``client/setups.py``).  A refusal is
  the same ``EiaError`` sentence the CLI prints.

The game folder may change under the view (``eiapbem load``, ``end-phase`` or ``mail sync`` in a terminal):
``stamp`` is the save's identity on disk (its two files' inode, size and time), and the session is opened
again whenever it changed, before any answer and before any act, so the view never writes over a newer save.
Reading never writes: the save is opened read only (``client.history.open_read_only``) for the page's
documents, and as a CLI command opens it (which may settle a battle file or an outbox) only to act.  A save
being written by another program at that moment is read again once it is quiet (``_settled``).  ``changes``
is what the page waits on to reload itself.

A month of the history (``month=YYYY-MM``) is read from the folder's monthly save (``client/history.py``),
read only.
"""

from __future__ import annotations

import hashlib
import threading
import time
from pathlib import Path
from typing import Any, Callable

from eiapbem.client import actionforms, documents
from eiapbem.core.errors import EiaError
from eiapbem.core.powers import POWERS


class ViewError(EiaError):
    """A request the page made that the view cannot answer (an unknown document, a missing value)."""


class View:
    """One power's game for the page (the module text)."""

    def __init__(self, home: Path, game: str, identity: Any) -> None:
        self.home = Path(home)
        self.game = game
        self.me = identity
        self.power = identity.role
        self._lock = threading.RLock()
        self._session: Any = None
        self._stamp: tuple | None = None
        self._months: dict[tuple[str, tuple], Any] = {}
        self._static: dict[str, Any] = {}

    # ------------------------------------------------------------------ the game on disk

    def stamp(self) -> tuple:
        """The save's identity on disk, and the monthly saves kept: it changes whenever a file is loaded or
        written (by the view, the CLI or ``mail sync``)."""
        save = self.home / "save"
        out: list = []
        for name in (f"{self.game}.sav", f"{self.game}.sav.dat"):
            try:
                st = (save / name).stat()
            except OSError:
                out.append(None)
                continue
            out.append((st.st_ino, st.st_size, st.st_mtime_ns))
        try:
            out.append(tuple(sorted(p.name for p in save.iterdir() if "_monthly_" in p.name)))
        except OSError:
            out.append(())
        return tuple(out)

    def version(self) -> str:
        """A short name of ``stamp`` the page compares to know it must reload."""
        return hashlib.sha256(repr(self.stamp()).encode()).hexdigest()[:16]

    def session(self) -> Any:
        """The game to read: the last session, or the save opened again (read only) when it changed on disk."""
        from eiapbem.client import history

        with self._lock:
            if self._session is None or self.stamp() != self._stamp:
                self._session = self._settled(lambda: history.open_read_only(self.home, self.game, self.me))
            return self._session

    def acting(self) -> Any:
        """The game to act in: opened as a CLI command opens it (``Session.open_with``) when the session in memory
        is a reader's or the save changed on disk since."""
        from eiapbem.client import history
        from eiapbem.client.session import Session

        with self._lock:
            s = self._session
            if s is None or isinstance(s, history.ReadOnlySession) or self.stamp() != self._stamp:
                self._session = self._settled(lambda: Session.open_with(self.home, self.game, self.me))
            return self._session

    def _settled(self, open_: Callable[[], Any], tries: int = 40, pause: float = 0.1) -> Any:
        """``open_()`` once the save is quiet: a save another program is writing (two files, renamed one after the
        other) is read again when it changed while it was read or could not be read."""
        for n in range(tries):
            before = self.stamp()
            try:
                s = open_()
            except EiaError:
                if n == tries - 1 or self.stamp() == before:
                    raise
                time.sleep(pause)
                continue
            after = self.stamp()
            if after == before or n == tries - 1:
                self._stamp = after
                return s
            time.sleep(pause)
        raise AssertionError("unreachable")

    def _written(self) -> None:
        """After the view's own write: the session in memory is what is on disk."""
        self._stamp = self.stamp()

    def month(self, month: str) -> Any:
        """The game as a monthly save holds it, read only (kept while the save is unchanged)."""
        from eiapbem.client import history

        with self._lock:
            s = self.session()
            key = (month, self._stamp or ())
            if key not in self._months:
                self._months = {k: v for k, v in self._months.items() if k[1] == key[1]}
                self._months[key] = history.open_month(s, month)
            return self._months[key]

    def changes(self, after: str, wait: float = 20.0, step: float = 0.25,
                sleep: Callable[[float], None] = time.sleep) -> dict:
        """Wait (at most ``wait`` seconds) until the game's version is no longer ``after``; the version now."""
        deadline = time.monotonic() + wait
        v = self.version()
        while v == after and time.monotonic() < deadline:
            sleep(step)
            v = self.version()
        return {"version": v}

    # ------------------------------------------------------------------ reading

    def read(self, name: str, query: dict[str, str]) -> Any:
        """The document ``name`` (one of ``DOCUMENTS``) with the page's ``query`` values."""
        if name not in DOCUMENTS:
            raise ViewError(f"the view has no document {name!r}")
        with self._lock:
            month = query.get("month")
            s = self.month(month) if month else self.session()
            return DOCUMENTS[name](self, s, query)

    def static_doc(self, name: str, make: Callable[[], Any]) -> Any:
        with self._lock:
            if name not in self._static:
                self._static[name] = make()
            return self._static[name]

    # ------------------------------------------------------------------ acting

    def act(self, op: str, body: dict) -> dict:
        """An order, an answer, a restart, end-phase or a load (one of ``OPERATIONS``), as the CLI gives it."""
        if op not in OPERATIONS:
            raise ViewError(f"the view has no operation {op!r}")
        with self._lock:
            s = self.acting()
            try:
                out = OPERATIONS[op](self, s, body)
            finally:
                self._written()
            return {**out, "version": self.version()}  # the page reloads once, not again on its wait


# ---------------------------------------------------------------------- the documents


def _need(query: dict[str, str], key: str) -> str:
    v = query.get(key)
    if not v:
        raise ViewError(f"the request needs a value for {key!r}")
    return v


def _orders(view: View, s: Any, query: dict) -> dict:
    """The orders of the phase in play as forms, and the questions' choices explained (``answer --help``)."""
    from eiapbem.rules.model import Phase

    st = s.current()
    phase = st.slot.phase if st.slot else None
    # Next month's diplomacy orders (the CLI's --next-month): outside the diplomacy phase, sealed in the power's
    # land file or economic orders; ``Session.order_ahead`` refuses them where they cannot be sealed any more.
    ahead = phase is not None and phase is not Phase.DIPLOMACY and not st.options.one_round_diplomacy
    orders = [{**o, "purchase": o["kind"] in documents.PURCHASES} for o in actionforms.catalogue(phase)] if phase else []
    return {"phase": str(phase) if phase else None, "orders": orders,
            "next_month": actionforms.catalogue(Phase.DIPLOMACY) if ahead else [],
            "next_month_given": len(s.meta.ahead.get(s.power, ())) if ahead else 0,
            "chits": actionforms.CHITS, "answer_help": actionforms.ANSWER_HELP.replace("\b\n", "")}


def _geometry(view: View, s: Any, query: dict) -> dict:
    from eiapbem.data.mapdata import load_map
    from eiapbem.present import svgmap

    return view.static_doc("geometry", lambda: svgmap.geometry(load_map()))


def _battle_text(s: Any, battle_id: str) -> dict:
    """``eiapbem battle report ID``: the report as the CLI prints it, round by round (Fog of War applied)."""
    found, what, b = documents.find_battle(s, battle_id)
    return {"id": found, "what": what, "text": documents.battle_text(what, b)}


def _months(view: View, s: Any, query: dict) -> dict:
    from eiapbem.client import history

    return {"months": [m for m, _ in history.monthly_saves(view.session())], "month": getattr(s, "month", None)}


DOCUMENTS: dict[str, Callable[[View, Any, dict], Any]] = {
    "status": lambda v, s, q: documents.status(s),
    "map": lambda v, s, q: documents.map_record(s),
    "log": lambda v, s, q: documents.log(s, None),
    "area": lambda v, s, q: documents.area(s, _need(q, "id")),
    "unit": lambda v, s, q: documents.unit(s, _need(q, "id")),
    "powers": lambda v, s, q: {"powers": [documents.power(s, p) for p in POWERS]},
    "pool": lambda v, s, q: documents.pool(s, s.power),
    "units": lambda v, s, q: documents.units(s, _need(q, "power").upper()),
    "reach": lambda v, s, q: documents.reach(s, _need(q, "unit"), q.get("forced_march") in ("1", "true")),
    "battles": lambda v, s, q: {"battles": documents.battles(s)},
    "battle": lambda v, s, q: documents.battle(s, _need(q, "id")),
    "battle-text": lambda v, s, q: _battle_text(s, _need(q, "id")),
    "economy": lambda v, s, q: documents.economy(s),
    "history": lambda v, s, q: documents.history(s),
    "orders": _orders,
    "geometry": _geometry,
    "months": _months,
}


# ---------------------------------------------------------------------- the operations


def _flag(body: dict, name: str) -> bool:
    """A yes/no field of an operation's request (absent: no); anything but true or false is refused."""
    v = body.get(name, False)
    if not isinstance(v, bool):
        raise ViewError(f"{name} is true or false, not {v!r}")
    return v


def _next(s: Any) -> dict:
    """What is still to do after an operation (the status's ``to_do`` and ``next``)."""
    try:
        rec = documents.status(s)
    except EiaError:
        return {"to_do": [], "next": None}
    return {"to_do": rec["to_do"], "next": rec["next"]}


def _order(view: View, s: Any, body: dict) -> dict:
    from eiapbem.rules import engine

    action = actionforms.from_form(str(body.get("kind", "")), body.get("values", {}))
    spec = engine.action_kinds()[action.KIND]
    if _flag(body, "next_month"):  # the CLI's --next-month: an order for next month's diplomacy phase, sealed ahead
        if not actionforms.next_month(spec):
            raise ViewError(f"{actionforms.command_name(type(action))} is not a diplomacy order: only those are given "
                            "for next month")
        n = s.order_ahead(action)
        return {"events": [f"{s.power}: {actionforms.command_name(type(action))} given for {s.state.date.next().name}'s "
                           f"diplomacy phase ({n} order{'s' if n != 1 else ''} for it so far); End phase in your land slot "
                           "(or the economic phase) seals them in that file"], **_next(s)}
    actionforms.check_phase(spec, s.state)
    if s.state.slot is not None and s.power in s.state.slot.actors:
        from eiapbem.data.context import rules_context

        actionforms.refuse_no_effect(s.current(), s.power, action, rules_context(s.slot_dice()))
    if action.KIND in documents.PURCHASES and not _flag(body, "even_if_short"):  # refused before it is taken, in
        # the CLI's sentence (money or manpower short, 12.5); the rules say what else is wrong
        name = actionforms.command_name(type(action))
        documents.refuse_unpaid(s, action, name, projection="the Economy panel", anyway="tick 'even if short'",
                                fits=lambda n: f"{name} with a count of {n}")
    out = s.act(action)
    texts = [e.text for e in out.events]
    if not texts:  # orders of a simultaneous phase log nothing until the phase resolves: confirm them
        name = actionforms.command_name(type(action))
        why = documents.unaffordable(s, action)  # never "accepted" for a purchase that cannot be paid (as the CLI)
        texts = [f"{s.power}: {name} is taken but will NOT be carried out as things stand: it {why} in the projection "
                 "(the Economy panel); Restart takes back this phase's orders" if why else
                 f"{s.power}: {name} accepted ({len(s.taken())} order(s) so far in this phase; end the phase to send them)"]
    return {"events": texts, **_next(s)}


def _answer(view: View, s: Any, body: dict) -> dict:
    from eiapbem.rules.engine import AnswerDecision

    decision, choice = body.get("decision"), body.get("choice")
    if not isinstance(decision, str) or not isinstance(choice, str) or not decision or not choice:
        raise ViewError("an answer needs the question's id and the choice")
    out = s.act(AnswerDecision(decision, choice))
    texts = [e.text for e in out.events] or [f"{s.power} answered {decision}: {choice}"]
    return {"events": texts + list(s.battle_lines()), **_next(s)}


def _restart(view: View, s: Any, body: dict) -> dict:
    n = s.restart()
    return {"events": [f"took back {n} action(s); the next action counts as a reload of this slot"], **_next(s)}


def _end_phase(view: View, s: Any, body: dict) -> dict:
    from eiapbem.client.orders import check_seal_slot

    seal = _flag(body, "seal_diplomacy")  # the CLI's end-phase --seal-diplomacy
    if seal:
        check_seal_slot(s.state, s.power)
    ahead = len(s.meta.ahead.get(s.power, ()))
    path = s.end_phase(seal_diplomacy=seal)
    draft = path.with_name(path.name + ".eml").exists()
    events = [f"{s.power} ended its slot; turn file commout/{path.name}" + (" (+ .eml draft to send)" if draft else "")]
    if seal or ahead:
        events.append(f"{s.power} sealed its diplomacy orders for next month in this file ({ahead} order(s) given for it, "
                      "with its diplomatic reactions): it plays no commit round then, only the reveal (6.0)")
    return {"events": events, "file": path.name, **_next(s)}


def _setup(view: View, s: Any, body: dict) -> dict:
    """``eiapbem setup load default``: the shipped setup placed (5.2.2, Load A Saved Setup), every action checked."""
    from eiapbem.client import setups

    if body.get("which", "default") != "default":
        raise ViewError("the page loads the shipped setup only ('default'); 'eiapbem setup load FILE' loads a saved one")
    n = setups.load_setup(s, "default")
    return {"events": [f"{s.power}: {n} setup actions applied"], **_next(s)}


def _load(view: View, s: Any, body: dict) -> dict:
    rep = s.load_all()
    texts = [f"loaded {name} ({slot})" for name, slot in rep.loaded]
    texts += [f"refused {name}: {why}" for name, why in rep.refused]
    if rep.obsolete:
        texts.append(f"ignored {len(rep.obsolete)} obsolete file(s) made before the host's last backup (4.2.8)")
    return {"events": texts or ["no new files in commin/"], **_next(s)}


OPERATIONS: dict[str, Callable[[View, Any, dict], dict]] = {
    "order": _order, "answer": _answer, "restart": _restart, "end-phase": _end_phase, "load": _load, "setup": _setup,
}
