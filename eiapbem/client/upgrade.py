"""A running game moves to a newer eiapbem (issue 29 item 4; 4.2.8 host functions).

The versions a game plays are a contract: ``rules.turn.versions`` (the rules
version and each computer level's) is written in the gamestart and in every
save, and two clients of other versions may compute other states from the
same file.  So a client plays only a game of its own versions, and the game
moves to a new release in one step every member takes:

- the host, with the new release installed, writes an **upgrade file** at a
  slot boundary (``eiapbem admin upgrade``, ``write``): a new epoch, like a
  backup, under the new versions, naming the release that plays them; the
  state carries over as the new release reads it, and the game's journal;
- each player loads that one file with the new release (``eiapbem load``,
  ``load``); files made before it are obsolete, files after it wait for it.

Until then a client of another release says exactly what to do
(``standing``): a newer release than the game's opens the game to look at it
and to load the upgrade file, and refuses to play ("wait for the host's upgrade
file"); an older release refuses to open it ("install eiapbem X").  An upgrade
file to versions this release does not play waits in ``commin/`` and says which
release to install.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

import eiapbem
from eiapbem import ai
from eiapbem.core.errors import EiaError, IllegalAction
from eiapbem.core.frozenmap import FrozenMap
from eiapbem.pbem import bodies, files, folders
from eiapbem.pbem.bodies import BattleBook
from eiapbem.pbem.errors import OUT_OF_SYNC, NeedsRelease, OutOfSync
from eiapbem.pbem.headers import UpgradeHeader
from eiapbem.rules import admin as radmin, turn
from eiapbem.rules.model import first_difference


class WrongVersion(EiaError):
    """The game plays other rules (or computer) versions than this eiapbem."""


def mine() -> dict[str, int]:
    """The versions this eiapbem plays."""
    return turn.versions(ai)


def describe(versions: Mapping[str, Any]) -> str:
    """``rules 6, ai-easy 9, ai-hard 9, ai-medium 9``."""
    rest = ", ".join(f"{k} {v}" for k, v in sorted(versions.items()) if k != "rules")
    return f"rules {versions.get('rules', 'none')}" + (f", {rest}" if rest else "")


def _release(r: str) -> str:
    return f"eiapbem {r}" if r else "the eiapbem release the host uses"


@dataclass(frozen=True)
class Standing:
    """This eiapbem against a game's versions: ``same``, ``newer`` (this release is newer) or ``older``."""

    kind: str
    game: dict
    release: str

    def wait(self, game: str) -> str:
        """The sentence for a game that plays an older release than this one (it waits for the upgrade)."""
        return (f"the game {game} still plays {describe(self.game)} ({_release(self.release)}), and this "
                f"eiapbem {eiapbem.__version__} plays {describe(mine())}: it plays on once the host's upgrade file "
                "is loaded")

    def install(self, game: str) -> str:
        return (f"the game {game} plays {describe(self.game)} ({_release(self.release)}), which this eiapbem "
                f"{eiapbem.__version__} ({describe(mine())}) does not play")


def standing(meta: Any) -> Standing:
    """Where this eiapbem stands against the versions a game's save records (a ``SaveMeta``, or a plain map)."""
    if isinstance(meta, Mapping):
        recorded, release = meta.get("versions"), str(meta.get("release") or "")
    else:
        recorded, release = getattr(meta, "versions", None), str(getattr(meta, "release", "") or "")
    now = mine()
    if not isinstance(recorded, Mapping):
        return Standing("older", {}, release)
    game = dict(recorded)
    if game == now:
        return Standing("same", game, release)
    if all(isinstance(game.get(k, 0), int) and now[k] >= game.get(k, 0) for k in now) and set(game) <= set(now):
        return Standing("newer", game, release)
    return Standing("older", game, release)


def check_open(meta: Any, game: str) -> Standing:
    """Refuse, in one sentence, a game of a release newer than this one; else where this release stands."""
    st = standing(meta)
    if st.kind == "older":
        raise WrongVersion(st.install(game), hint=f"install {_release(st.release)} and run the command again "
                                                   "('pip install --upgrade eiapbem', or the host's instructions)")
    return st


def check_versions(recorded: object, what: str) -> None:
    """Refuse, in one sentence, a gamestart of other versions than this eiapbem's (a game is joined as it began)."""
    wrong = turn.version_mismatch(recorded, ai)
    if wrong:
        raise WrongVersion(f"{what}: {wrong}, so the same files would give other states here",
                           hint="use the eiapbem release the game was started with (the host says which)")


def plays_here(s: Any) -> None:
    """Refuse to play (act, end a phase, load a turn, write an admin file) a game of an older release."""
    st = standing(s.data.meta)
    if st.kind == "same":
        return
    if st.kind == "newer":
        hint = ("run 'eiapbem admin upgrade' once every player has installed this release" if "host" in s.local
                else f"wait for the host's upgrade file and load it ('eiapbem load'); until then play with "
                     f"{_release(st.release)}")
        raise WrongVersion(st.wait(s.game), hint=hint)
    raise WrongVersion(st.install(s.game), hint=f"install {_release(st.release)}")


def status_line(s: Any) -> str | None:
    """``status``'s line for a game of another release than this one, else None."""
    st = standing(s.data.meta)
    if st.kind == "same":
        return None
    return (st.wait(s.game) + ("; run 'eiapbem admin upgrade' once every player has installed it" if "host" in s.local
                               else "; wait for the host's upgrade file and load it ('eiapbem load')"))


def upgrade_name(game: str, epoch: int) -> str:
    """``GameName_upgrade_0002.pbm``: the host's upgrade file that starts epoch ``epoch``."""
    return f"{folders.check_game_name(game)}_upgrade_{epoch:04d}.pbm"


def _shared_meta(meta: bodies.SaveMeta, versions: dict, release: str) -> bodies.SaveMeta:
    """The meta every member may read: who plays what, the scenario, the versions; nothing of the host's own."""
    return meta.replace(versions=FrozenMap(sorted(versions.items())), release=release, head=None, sealed=FrozenMap(),
                        reactions=FrozenMap())


def write(s: Any, when: str) -> Path:
    """The host's upgrade file (``eiapbem admin upgrade``, a ``Session`` of the host): the game moves to this
    eiapbem's versions."""
    from eiapbem.client.store import GameData

    st = standing(s.data.meta)
    if st.kind == "same":
        raise IllegalAction(f"the game {s.game} already plays this eiapbem's versions ({describe(st.game)}); "
                            "there is nothing to upgrade")
    chain = s.contents.chain
    state = s.state
    if state.slot is None:
        raise IllegalAction("the game is over; there is nothing to upgrade")
    if chain.step is not None or s.data.orders:
        raise IllegalAction(f"the orders of {state.slot.key(state.date)} are still coming in; the game moves to a new "
                            "release at a slot boundary, once every power's orders are in",
                            hint="run 'eiapbem admin upgrade' again when the step is complete")
    for p in s.folders.incoming(s.game):
        try:
            rec = files.read_file(p)
        except EiaError:
            continue
        h = rec.header
        if h.kind in ("turn", "admin") and h.gid == chain.gid and h.epoch == chain.epoch and rec.hash not in chain.known:
            raise IllegalAction(f"{p.name} ({h.slot}) waits in commin/: the game's files are loaded by the release it "
                                f"plays ({_release(st.release)}) before it moves on",
                                hint=f"load it with {_release(st.release)} ('eiapbem load'), then run "
                                     "'eiapbem admin upgrade' again")
    busy = sorted(p for p, a in s.data.taken.items() if a)
    if busy or s.data.battles != BattleBook():
        raise IllegalAction(f"{', '.join(busy) or 'a battle of this folder'} is in the middle of "
                            f"{state.slot.key(state.date)} here; the game moves to a new release at a slot boundary",
                            hint="end that slot ('eiapbem end-phase') or take its actions back ('eiapbem restart') first")
    versions, release = mine(), eiapbem.__version__
    act = radmin.Upgrade(release, describe(versions), f"{describe(st.game)}" + (f" of eiapbem {st.release}" if st.release else ""),
                         when)
    out = radmin.apply_admin(state, act)
    meta = _shared_meta(s.data.meta, versions, release)
    game = GameData(out.state, meta, journal=s.data.journal).absorbed()
    body = {"act": radmin.admin_to_obj(act), "before": state.state_hash(), "after": out.state.state_hash(),
            "game": game.to_obj()}  # the journal as its encoded lines (``GameData.to_obj``)
    sealed, new_chain = files.write_upgrade(chain, s.me, body, versions=versions, release=release,
                                            state_hash=out.state.state_hash(), rng=s.store.rng)
    name = upgrade_name(s.game, new_chain.epoch)
    what = f"upgrade to eiapbem {release}"
    s.data = replace(s.data, state=out.state,
                     meta=s.data.meta.replace(versions=FrozenMap(sorted(versions.items())), release=release),
                     taken={}, orders={}, battles=BattleBook(), outbox=bodies.Outbox(name, sealed.data, what))
    s.contents = replace(s.contents, chain=new_chain)
    s.turns._note(name, sealed.header.slot, "host", when, 0)
    s.auto.settle()
    s.save()
    path: Path = s.outbox.send(name, sealed.data, what)
    return path


def load(turns: Any, rec: files.Received, name: str, save: bool = True) -> str:
    """Load the host's upgrade file (for ``Turns.load_bytes``): check it, take the new versions, start its epoch
    (every refusal changes nothing)."""
    s = turns.store
    h = rec.header
    assert isinstance(h, UpgradeHeader)
    now = mine()
    if dict(h.versions) != now:
        raise NeedsRelease(
            f"{name} moves the game to {describe(h.versions)} (eiapbem {h.release}), which this eiapbem "
            f"{eiapbem.__version__} ({describe(now)}) does not play: install eiapbem {h.release}, then run "
            "'eiapbem load' again (the file waits in commin/)",
            hint="every player of the game installs that release and loads this file")
    state = s.state
    chain, raw = files.load_upgrade(s.contents.chain, rec, [s.me], name)
    body = bodies.decode(bodies.UpgradeBody, raw, name, "an upgrade")
    act = radmin.admin_from_obj(body.act, f"{name} act")
    if not isinstance(act, radmin.Upgrade) or act.release != h.release:
        raise OutOfSync(f"{name} carries another act than the move to eiapbem {h.release}")
    from eiapbem.client.store import GameData

    theirs = GameData.from_obj(body.game.to_obj(), name)
    if dict(theirs.meta.versions) != now or body.after != h.state or theirs.state.state_hash() != h.state:
        raise OutOfSync(f"{name} names other versions or another state inside than in its signed header")
    if body.before != state.state_hash():
        where = first_difference(state.to_obj(), theirs.state.to_obj())
        raise OutOfSync(f"{OUT_OF_SYNC}: {name} moves the game on from another state than yours "
                        f"(the first difference is at {where})",
                        hint="the host can send backups to bring everyone back in sync (4.2.8)")
    out = radmin.apply_admin(state, act)
    if out.state.state_hash() != body.after:
        raise OutOfSync(f"{OUT_OF_SYNC}: {name} gives another state here than the host's")
    meta = s.data.meta.replace(versions=FrozenMap(sorted(now.items())), release=h.release,
                               players=theirs.meta.players, host=theirs.meta.host)
    slot_key = state.slot.key(state.date) if state.slot else ""
    starts = {k: v for k, v in s.contents.starts.items() if not (k.startswith(slot_key) and s.data.taken)}
    s.data = replace(s.data, state=out.state, meta=meta, taken={}, orders={}, battles=BattleBook())
    s.contents = replace(s.contents, chain=chain, starts=starts)
    turns.auto.settle()
    if save:
        s.save()
    return str(h.slot)


__all__ = ["Standing", "WrongVersion", "check_open", "check_versions", "describe", "load", "mine", "plays_here",
           "standing", "status_line", "upgrade_name", "write"]
