"""The host's admin menu (4.2.8, 000:178-264) on the game loop.

Every function here but ``load_backup`` and ``take_host`` needs the host's own
session: the folder's save opened with the game's host key (4.2.2 step 6,
000:114: the admin menu exists only in the host's own save) and the game
option "Allow PBEM Host Functions" on (4.1.1, 000:32).  Each act becomes a
host-signed admin file in the chain (``Session.write_admin``) with its public
log line; a backup set starts a new epoch instead (docs/file-format.md 6).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from eiapbem.core.errors import EiaError, IllegalAction
from eiapbem.pbem import atomic, bodies as pbodies, crypto, envelope, files, folders, headers, keys, savegame
from eiapbem.pbem.chain import Chain
from eiapbem.pbem.email import Person, make_draft, subject_for
from eiapbem.pbem.errors import BadFile, NotForYou
from eiapbem.pbem.files import SaveContents
from eiapbem.rules import admin as radmin
from eiapbem.rules.model import POWERS, GameState, first_difference

from eiapbem.client.session import Session
from eiapbem.client.store import (
    GameData,
    monthly_name,
    open_identity,
    scrypt_params,
    utc_now,
    write_identity,
)
from eiapbem.client.turns import state_parts

#: The repair the manual documents for out-of-sync games (000:214-220).
REPAIR = ("The documented repair is a backup set (4.2.8, 000:214-220): 'eiapbem admin backup' "
          "(from the current state or --from a monthly save), then every player loads their own backup.")


class NotHost(EiaError):
    """An admin command outside the host's own save, or with host functions off."""


def require_host(s: Session, *, edit: bool = True) -> None:
    """The admin menu is the host's, in the host's own save, with host functions allowed."""
    if s.power != "host" or s.chain.roster.get("host") != s.me.public():
        raise NotHost("the admin menu is only available in the host's own save (4.2.2 step 6, 000:114)",
                      hint="run it in the host's folder; it opens with the host's password")
    if edit and not s.state.options.allow_pbem_host_functions:
        raise NotHost("this game does not allow host functions: the game option 'Allow PBEM Host Functions' is off (4.1.1, 000:32)",
                      hint="it is chosen when the game is created ('eiapbem new --option allow-pbem-host-functions')")
    if edit:
        load_first(s)


def load_first(s: Session) -> None:
    """Every host act first loads what waits in commin/, and refuses to act on a slot whose file is there (issue 20).

    A skip made while the skipped player's file waits unloaded is the fork of
    issue 20: every folder would have to choose between the two.
    """
    from eiapbem.client import forks

    st = s.state
    where = st.slot.key(st.date) if st.slot else "game over"
    rep = s.load_all()
    now = s.state
    if rep.loaded and (now.date, now.slot) != (st.date, st.slot):
        names = ", ".join(n for n, _ in rep.loaded)
        raise IllegalAction(
            f"first loaded the file(s) waiting in commin/ ({names}): the game has moved on from {where} to "
            f"{now.slot.key(now.date) if now.slot else 'its end'}, so nothing else was done",
            hint="look at 'eiapbem admin status' and run the command again if it is still needed")
    ch = s.chain
    for k in forks.kept_files(s):
        h = k.header
        if k.path.parent == s.folders.commin and h.kind == "turn" and h.epoch == ch.epoch and h.prev == ch.head \
                and k.hash not in ch.known:
            raise IllegalAction(
                f"{h.author}'s file {k.path.name} for {h.slot} is already in commin/ but does not load "
                f"({dict(rep.refused).get(k.path.name, 'see eiapbem load')}); a host act now would fork the game",
                hint=f"load it ('eiapbem load'), or move it out of commin/ if {h.author} must send it again")


def edit(s: Session, acts: list) -> Path:
    """Apply admin acts and write their admin file (and .eml) to commout/."""
    require_host(s)
    return s.write_admin(acts)


def upgrade(s: Session) -> Path:
    """Move the game to this eiapbem's versions (issue 29): the host's upgrade file, a new epoch, at a slot boundary.

    Any host may do it, host functions on or off (4.1.1 "Allow PBEM Host Functions" is about edits to the
    game; a game that could never move to a new release could not outlive one).  A file of the game
    waiting in commin/ refuses it (``client.upgrade.write``): the release the game plays loads it first."""
    from eiapbem.client import upgrade as client_upgrade

    require_host(s, edit=False)
    return client_upgrade.write(s, utc_now())


def skip(s: Session) -> Path:
    st = s.state
    if st.slot is None:
        raise IllegalAction("the game is over; there is no player to skip")
    if st.slot.power is None:  # a simultaneous slot
        return edit(s, [radmin.SkipSlot(st.slot.actors[0])])  # refused with the rules' sentence
    return edit(s, [radmin.SkipSlot(st.slot.power)])


def ai_play(s: Session, level: str = "ai-medium") -> Path:
    """"Quick play turn with AI" (000:202): the computer plays the turn of the player next to move.

    A host-signed admin act; every client replays it with the admin file's dice
    (docs/file-format.md 7.3), so the computer's moves are the same everywhere.
    """
    st = s.state
    if st.slot is None:
        raise IllegalAction("the game is over; there is no turn for the computer to play")
    if st.slot.power is None:  # a simultaneous slot
        return edit(s, [radmin.AiPlay(st.slot.actors[0], level)])  # refused with the rules' sentence
    return edit(s, [radmin.AiPlay(st.slot.power, level)])


# ----------------------------------------------------------------- monthly saves and backups


def monthly_saves(s: Session) -> list[tuple[str, Path]]:
    """The host's automatic saves (000:216), by month."""
    from eiapbem.client import history

    return history.monthly_saves(s)


def _monthly_state(s: Session, month: str) -> GameData:
    path = s.folders.save / monthly_name(s.game, month)
    if not path.is_file():
        have = ", ".join(m for m, _ in monthly_saves(s)) or "none yet"
        raise IllegalAction(f"there is no monthly save for {month!r}; the saves kept are: {have}")
    sav, dat = atomic.read_save_pair(path)
    return s.open_save(sav, dat, path.name)


@dataclass
class BackupSet:
    epoch: int
    source: str
    paths: dict


def make_backups(s: Session, month: str | None = None, *, require: bool = True) -> BackupSet:
    """"Create Backups!" (000:216-218): two files per member in save/, a new epoch; the host's save moves to it."""
    if require:
        require_host(s)
    from eiapbem.client import upgrade as client_upgrade

    client_upgrade.plays_here(s)  # a backup of a game of an older release would carry its versions on
    chain = s.chain
    if month is not None:
        src = _monthly_state(s, month)
        state, source = src.state, f"the monthly save of {month} (start of its diplomacy phase)"
    else:
        state = s.state
        source = f"the current state ({state.slot.key(state.date) if state.slot else 'game over'})"
    when = utc_now()
    state = radmin.apply_admin(state, radmin.Backups(chain.epoch + 1, source, when)).state
    held = s.meta
    meta = pbodies.SaveMeta(held.scenario, held.players, held.host, held.versions,
                            release=held.release)  # who plays what, no host's notes
    members = list(POWERS)
    if not any(meta.players[p].type == "host" for p in POWERS):
        members.append("host")  # the host's own copy when it plays no power
    # The backup carries the game's journal (public lines, outside the hashed state) with the backup's own line.
    game = s.game_data_at(state, meta).absorbed().to_obj()
    bodies = {m: {"game": game} for m in members}
    sealed = files.write_backups(chain, s.me, state.state_hash(), bodies)
    paths = {}
    for m, sd in sealed.items():
        path = s.folders.save / folders.backup_name(s.game, m)
        assert sd.dat is not None
        atomic.write_save_pair(path, sd.data, sd.dat)
        paths[m] = path
        _backup_draft(s, m, path, meta)
    # The host's own folder takes its backup at once (000:220: the host loads it too).
    mine = next(m for m in members if m in s.local)
    new_chain = Chain.from_backup(sealed[mine].header, sealed[mine].hash, chain.known)
    s.restart_from(new_chain, s.game_data_at(state))
    return BackupSet(new_chain.epoch, source, paths)


def _backup_draft(s: Session, member: str, path: Path, meta: pbodies.SaveMeta) -> Path | None:
    """One email per member, never a group list (000:220)."""
    if member in s.local:
        return None
    row = meta.host if member == "host" else meta.players[member]
    if isinstance(row, pbodies.PlayerRow) and row.type not in ("client", "host"):
        return None
    host = Person(meta.host.name, meta.host.email)
    dat = path.with_name(path.name + ".dat")
    draft = make_draft(host, [Person(row.name, row.email)], subject_for(s.game, f"backup for {member}"), [path, dat],
                       body=(f"Your backup of {s.game}. Put both files in your save folder and run:\n"
                             f"  eiapbem load-backup save/{path.name}\n"
                             "Files made before this backup are obsolete.\n"))
    out = s.folders.commout / f"{path.name}.eml"
    atomic.write_atomic(out, draft)
    return out


def load_backup(home: Path, path: Path, password: str, *, role: str | None = None, key_file: Path | None = None,
                one_time: str | None = None) -> Session:
    """Load the backup the host sent (000:220-226); a new player gives its key file and one-time password."""
    home = Path(home)
    sav, dat = atomic.read_save_pair(path)
    h = envelope.parse(sav, path.name).header
    if not isinstance(h, headers.BackupHeader):
        raise NotForYou(f"{path.name} is a {h.kind} file, not a host backup")
    game = h.game
    role = role or h.power
    if role != h.power:
        raise NotForYou(f"{path.name} is the backup for {h.power}, not for {role}; the host must send you your own")
    if key_file is not None:
        if one_time is None:
            raise IllegalAction("a new key file from the host needs its one-time password (--one-time-password)")
        ident = keys.open_identity(folders.read_limited(key_file, keys.MAX_KEY_FILE), one_time, key_file.name)
        if ident.role != role:
            raise NotForYou(f"{key_file.name} holds the keys of {ident.role}, not of {role}")
    else:
        ident = open_identity(home, game, role, password)
    chain = None
    starts: dict = {}
    try:
        old = Session.open_with(home, game, ident)
        chain, starts = old.chain, dict(old.starts)
    except (EiaError, KeyError):
        chain = None  # no save yet (a new player, 000:206) or a damaged one: trust the backup's host key
    new_chain, body = files.open_backup(sav, dat, ident, chain, path.name)
    pbodies.decode(pbodies.BackupBody, body, path.name, "a backup")
    data = GameData.from_obj(body["game"], path.name)
    if data.state.state_hash() != h.state:
        raise BadFile(f"{path.name} holds another state than its header names; ask the host for a new backup")
    if key_file is not None:
        write_identity(home, game, ident, password)
    return Session.create(home, game, ident, new_chain, data, starts=starts)


# ----------------------------------------------------------------- replacing players


@dataclass
class Replaced:
    admin: Path
    key: Path | None
    one_time: str | None
    backups: BackupSet | None
    #: For a new host who plays no power: the host's save, sealed to the new host key.
    handover: Path | None = None


#: Player types a replacement may give a power (000:204-208): an email client, or a human at the host's computer.
REPLACEMENT_TYPES = ("client", "hotseat")


def replace_player(s: Session, power: str, name: str, email: str, kind: str = "client",
                   new_password: str | None = None) -> Replaced:
    """A human replaced by another (000:204-208): new keys and an admin file.

    ``kind`` "client": the new player plays by email; they get a key file with a
    one-time password and everyone a backup set (000:208: seven backups).
    ``kind`` "hotseat": the new player sits at the host's computer; their key is
    written to the host's folder under ``new_password`` and the admin file alone
    brings everyone in sync (no save leaves the host's folder).
    """
    from eiapbem.client.newgame import one_time_password

    require_host(s)
    if kind not in REPLACEMENT_TYPES:
        raise IllegalAction(f"{kind!r} is not a player type a replacement can have; choose one of {', '.join(REPLACEMENT_TYPES)}")
    row = s.meta.players[power]
    if row.type not in REPLACEMENT_TYPES and not row.type.startswith("ai-"):
        raise IllegalAction(f"{power} is played by the host itself ({row.type}); the host's own power is handed on with the host role",
                            hint="use 'eiapbem admin replace-host --power ...' to hand on the host role")
    if kind == "hotseat" and not new_password:
        raise IllegalAction(f"a hot-seat player for {power} needs a password of their own (--new-password)")
    person = Person(name, email)
    person.checked()
    ident = keys.Identity.generate(power)
    players = s.meta.players.set(power, pbodies.PlayerRow(person.name, person.address, kind))
    act = radmin.ReplacePlayer(power, row.name, person.name, utc_now())
    path = s.write_admin([act], roster={power: ident.public()}, players=players)
    if kind == "hotseat":
        assert new_password is not None
        write_identity(s.home, s.game, ident, new_password)
        s.refresh_roles()
        s.save()  # sealed to the new player's key too: they open the host's folder's save with their password
        return Replaced(path, None, None, None)
    otp = one_time_password()
    kp = s.folders.put(s.folders.commout, folders.identity_name(s.game, power),
                       keys.seal_identity(ident, otp, s.game, **scrypt_params()))
    return Replaced(path, kp, otp, make_backups(s))


def replace_by_ai(s: Session, power: str, level: str) -> Path:
    """A player replaced by the computer (000:206): an admin file; from then on every client plays the power.

    The manual has the human before the AI compute and send its turns; here every
    client plays them itself (docs/decisions.md "AI players"), so no key, backup or
    file is needed for the power any more.
    """
    require_host(s)
    row = s.meta.players[power]
    if row.type == "host":
        raise IllegalAction(f"{power} is the host's own power; hand the host role on first ('eiapbem admin replace-host')")
    if row.type == level:
        raise IllegalAction(f"{power} is already played by the computer at {level}")
    players = s.meta.players.set(power, pbodies.PlayerRow(f"Computer ({level})", "", level))
    act = radmin.ReplaceByAi(power, row.name, level, utc_now())
    return s.write_admin([act], players=players)


def replace_host(s: Session, name: str, email: str, power: str | None) -> Replaced:
    """The host role and key move to someone else (000:208); every client learns it from this admin file.

    The new host plays ``power`` (an email player of the game), or no power at
    all: someone from outside the playgroup.  Such a host has no save yet, so
    the old host also writes ``commout/GameName_host_handover.sav`` (+ ``.dat``):
    its save after the admin file, signed with and sealed to the new host key
    only, which ``take_host`` installs.  The old host's other powers stay with
    the old host's folder and play by email from now on (type client).
    """
    from eiapbem.client.newgame import one_time_password

    require_host(s)
    meta = s.meta
    person = Person(name, email)
    person.checked()
    if power is not None and meta.players[power].type not in ("client", "host"):
        raise IllegalAction(f"{power} is a hot-seat power at the host's computer; the new host must be an email player or someone new")
    players = {p: r.replace(type="client") if r.type in ("host", "hotseat") else r  # no longer at the host's computer
               for p, r in meta.players.items()}
    if power is not None:
        players[power] = pbodies.PlayerRow(person.name, person.address, "host")
    ident = keys.Identity.generate("host")
    act = radmin.ReplaceHost(meta.host.name, person.name, utc_now(), power)
    path = s.write_admin([act], roster={"host": ident.public()}, players=players,
                         host=pbodies.Person(person.name, person.address))
    otp = one_time_password()
    kp = s.folders.put(s.folders.commout, folders.identity_name(s.game, "host"),
                       keys.seal_identity(ident, otp, s.game, **scrypt_params()))
    handover = None
    if power is None:
        data = s.game_data_at(s.state)  # nothing of the old host's own powers' slot in progress
        sealed = files.write_save(SaveContents(s.chain, data.to_obj(), {}), ident)
        assert sealed.dat is not None
        handover = s.folders.commout / folders.handover_name(s.game)
        atomic.write_save_pair(handover, sealed.data, sealed.dat)
    return Replaced(path, kp, otp, None, handover)


def take_host(home: Path, game: str | None, power: str | None, password: str | None, key_file: Path, one_time: str,
              host_password: str, handover: Path | None = None) -> Session:
    """The new host installs the host key the old host sent (000:208).

    A player of the game (``power``) first loads the admin file naming them; a
    new host from outside the playgroup (``power`` None) installs the
    ``handover`` save instead, in a folder that holds no save of this game.
    """
    home = Path(home)
    if power is None:
        if handover is None:
            raise IllegalAction("a new host who plays no power needs the host's save the old host sent (--handover FILE)")
        sav, dat = atomic.read_save_pair(handover)
        gf = folders.GameFolders(home)
        if (gf.save / folders.save_name(envelope.parse(sav, handover.name).header.game)).exists():
            raise IllegalAction("this folder already holds a save of that game; take the host role in a folder of its own",
                                hint="or, as a player of the game, load the admin file and use --power")
    ident = keys.open_identity(folders.read_limited(key_file, keys.MAX_KEY_FILE), one_time, key_file.name)
    if ident.role != "host":
        raise NotForYou(f"{key_file.name} holds the keys of {ident.role}, not the host's")
    if power is None:
        assert handover is not None  # (refused above)
        contents = files.open_save(sav, dat, ident, handover.name)
        game = contents.chain.game
        if contents.chain.roster.get("host") != ident.public():
            raise NotForYou(f"{handover.name} does not name {key_file.name} as the game's host key; ask the old host for both again")
        gf.ensure()
        write_identity(home, game, ident, host_password)
        savegame.store(gf, game, contents, ident)
        return Session.open_with(home, game, ident)
    s = Session.open(home, game, power, password or "")
    if s.chain.roster.get("host") != ident.public():
        raise NotForYou(f"{key_file.name} is not the host key your game knows; load the host's admin file that names the new host first")
    write_identity(home, s.game, ident, host_password)
    s.refresh_roles()
    s.save()  # sealed to the host key too: the admin menu opens from this save now
    return Session.open_with(home, s.game, ident)


# ----------------------------------------------------------------- status and sync check


def status_lines(s: Session) -> list[str]:
    """Who holds the game up (4.2.8): the slot awaited, its player and address, and since when."""
    require_host(s, edit=False)
    st = s.state
    meta = s.meta
    out = [f"Game {s.game}, backup epoch {s.chain.epoch}; host functions "
           + ("on" if st.options.allow_pbem_host_functions else "off (4.1.1: the admin edits are refused)")]
    head = meta.head
    since = f"since {head.made} (when {head.file} was made)" if head else "since the game began"
    waiting = s.awaited()
    if not waiting:
        out.append("The game is over; nobody is awaited.")
    for p, slot in waiting:
        row = meta.players[p]
        out.append(f"Waiting for {slot}: {p} played by {row.name} <{row.email}> ({row.type}), {since}")
    rl = meta.reloads
    if rl:
        for p in sorted(rl):
            total = sum(n for _, n in rl[p])
            where = ", ".join(f"{slot} x{n}" for slot, n in rl[p])
            out.append(f"Reloads reported by {p}: {total} ({where})")
    else:
        out.append("Reloads reported: none (4.2.7)")
    return out


@dataclass
class Seen:
    """One state at one point: a whole state (a save, a replay) or only its hash and parts' digests (a file)."""

    who: str
    where: str
    hash: bytes
    parts: dict
    source: str
    state: GameState | None = None
    #: For a file: "loaded" (this folder accepted it, its state after checked equal then), "next" (it follows
    #: this folder's last file: not loaded yet), or "".
    known: str = ""


def _seen(who: str, where: str, st: GameState, source: str) -> Seen:
    return Seen(who, where, st.state_hash(), state_parts(st), source, st)


def _difference(ref: Seen, x: Seen) -> str:
    """Where two states at one point differ: the first field when both are whole, else the first part."""
    if ref.state is not None and x.state is not None:
        return str(first_difference(ref.state.to_obj(), x.state.to_obj()))
    if not ref.parts or not x.parts:
        return "(not named: an orders file names only the hash of the state its orders start from)"
    for k in sorted(set(ref.parts) | set(x.parts)):
        if ref.parts.get(k) != x.parts.get(k):
            return k
    return "(no part: the parts agree but the hashes do not)"


def _read_point(s: Session, path: Path) -> "Seen | tuple[Seen, Seen]":
    """One player's state from their turn file (the hash and parts after it) or from a save this folder can open."""
    if path.name.endswith(".sav"):
        sav, dat = atomic.read_save_pair(path)
        h = envelope.parse(sav, path.name).header
        if h.kind != "save" or h.stanza_for(s.power) is None:
            raise NotForYou(f"{path.name} is {h.author}'s {h.kind} file, sealed to {h.author} only; "
                            "ask for that player's last turn file instead")
        st = s.open_save(sav, dat, path.name).state
        return _seen(h.author, _where(st), st, path.name)
    rec = files.read_file(path)  # read and parsed once; the one opening sequence of a game file below
    h = rec.header
    if h.gid != s.chain.gid:
        raise BadFile(f"{path.name} belongs to another game ({h.game})")
    if h.kind not in ("turn", "admin"):
        crypto.verify_with_roster(rec.env, dict(s.chain.roster), path.name)
        raise BadFile(f"{path.name} is a {h.kind} file; give turn files or saves")
    raw = files.open_file(rec, s.chain, [s.me], any_epoch=True)  # a player's older file is compared too
    if h.kind == "admin":
        body = pbodies.decode(pbodies.AdminBody, raw, path.name, "admin acts").to_obj()
    else:
        body = pbodies.decode(pbodies.TurnBody, raw, path.name, "a turn").to_obj()
        from eiapbem.client import forks

        if forks.one_step([h.slot]):
            # Orders of a simultaneous step: the state after them holds this power's orders only, so the
            # files of one step differ by design; the state they all start from is what must agree.
            return Seen(h.author, body["slot"], body["before"], {}, path.name)
    where = body["at"]
    known = "loaded" if rec.hash in s.chain.known else "next" if h.prev == s.chain.head else ""
    seen = Seen(h.author, where, body["after"], body["parts"], path.name, known=known)
    host = s.state
    if (h.kind == "turn" and host.slot is not None and not host.slot.simultaneous
            and body["slot"] == host.slot.key(host.date)):
        # A file of the slot the host is in: replay its actions on the host's state (the one turn function, the
        # file's dice, as a load does) to compare what each side ends with, whether or not it starts from the same.
        from eiapbem import ai
        from eiapbem.core.dice import Dice
        from eiapbem.data.context import rules_context
        from eiapbem.rules import engine, turn

        assert isinstance(h, headers.TurnHeader)  # a turn file's header names its dice (pbem/headers.py)
        d = Dice(crypto.dice_seed(h.reveal, h.prev, h.kind), {k: v[1] for k, v in body["dice"].items()}, strict=True)
        try:
            acts = [engine.action_from_obj(o) for o in body["actions"]]
            mine = turn.play_turn(host, h.author, acts, d, rules_context, ai).state
            seen.where = _where(mine)
            return seen, _seen("host", seen.where, mine, "the host's replay of " + path.name)
        except EiaError:
            pass
    return seen


def _where(st: GameState) -> str:
    return f"{st.slot.key(st.date)}" if st.slot else "game over"


def _forks_of(s: Session, paths: Iterable[Path]) -> list[str]:
    """Forks among the files given and the files the host accepted (issue 20 item 4)."""
    from eiapbem.client import forks

    items = []
    for p in paths:
        if p.name.endswith(".sav"):
            continue
        try:
            rec = files.read_file(p)
        except EiaError:
            continue
        if rec.header.gid == s.chain.gid:
            items.append((p.name, rec.header, rec.hash))
    for name, h, fh in list(items):
        other = forks.accepted_after(s, h.prev, h.epoch)
        if other is not None and other.hash != fh:
            items.append((other.path.name, other.header, other.hash))
    return forks.forks_among(items)


def _alone(s: Session, x: Seen) -> str:
    """What a state with nothing beside it at its point means, and what the host does about it."""
    if x.who == "host":
        return "the players' files that end at this point are compared with it when given"
    if x.known == "loaded":
        return ("this folder loaded that file, and its state then equalled this folder's replay of it (4.2.7); the "
                f"host has moved on to {_where(s.state)}: nothing is to be done for it")
    if x.known == "next":
        return ("the file follows this folder's last one and is not loaded yet: load it ('eiapbem load') and run "
                "sync-check again with the next files")
    return ("nothing to compare it with: give a file or save of another player at the same point, or this "
            "player's newer file")


def sync_check(s: Session, paths: Iterable[Path]) -> list[str]:
    """Name the players whose state differs from the others' at the same point, and where (first difference)."""
    require_host(s, edit=False)
    paths = list(paths)
    seen = [_seen("host", _where(s.state), s.state, "the host's save")]
    lines = []
    unchecked = []
    for p in paths:
        try:
            got = _read_point(s, p)
            if isinstance(got, tuple):
                seen.extend(got)
            else:
                seen.append(got)
        except EiaError as err:
            lines.append(f"cannot read {p.name}: {err}")
            unchecked.append(p.name)
    groups: dict[str, list[Seen]] = {}
    for x in seen:
        groups.setdefault(x.where, []).append(x)
    bad = []
    for where, xs in sorted(groups.items()):
        hashes = [x.hash for x in xs]
        ref_i = next((i for i, x in enumerate(xs) if x.who == "host"), None)
        if ref_i is None:
            ref_i = max(range(len(xs)), key=lambda i: (hashes.count(hashes[i]), -i))
        ref = xs[ref_i]
        for x, h in zip(xs, hashes):
            if h != hashes[ref_i]:
                diff = _difference(ref, x)
                bad.append(x.who)
                lines.append(f"{x.who} differs at {where} ({x.source}): first difference at {diff} "
                             f"(compared with {ref.who}, {ref.source})")
        if len(xs) > 1 and all(h == hashes[ref_i] for h in hashes):
            lines.append(f"{where}: {', '.join(x.who for x in xs)} agree ({hashes[0].hex()[:16]})")
        elif len(xs) == 1:
            lines.append(f"{where}: only {xs[0].who} ({xs[0].source}); {_alone(s, xs[0])}")
            if xs[0].known != "loaded" and xs[0].who != "host":
                unchecked.append(xs[0].who)
    fork_lines = _forks_of(s, paths)
    lines.extend(fork_lines)
    if bad or fork_lines:
        lines.insert(0, "Forked: files follow the same point of the chain (see below); the host's act wins (4.2.8)"
                     if fork_lines else f"Out of sync: {', '.join(sorted(set(bad)))}")
        lines.append(REPAIR)
    elif unchecked:
        lines.insert(0, f"Nothing differs, but {', '.join(sorted(set(unchecked)))} could not be compared (see below)")
    else:
        lines.insert(0, "In sync: every state given agrees with the others at the same point; nothing is to be done")
    return lines


__all__ = ["BackupSet", "NotHost", "Replaced", "ai_play", "edit", "upgrade", "replace_by_ai", "load_backup", "make_backups", "monthly_saves", "replace_host",
           "replace_player", "require_host", "skip", "status_lines", "sync_check", "take_host"]
