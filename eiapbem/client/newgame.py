"""A new game (4.2.2 "As Host") and joining it (4.2.2 "As Client").

Keys: the host generates every role's identity (docs/decisions.md "Game
loop").  The powers played at the host's computer (its own power and any
hot-seat powers, 4.2.1) get key files sealed under their players' passwords
in the host's folder.  Each email client's key file is sealed under a fresh
**one-time password**; the file goes out with the gamestart (one email per
client, ``commout/GameName_FR.key``) and the host tells the password by
another way (telephone, chat, a separate email).  ``join`` opens it with the
one-time password and seals it again under the player's own password, which
nobody else knows.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

import eiapbem
from eiapbem import ai
from eiapbem.data import scenario_file, world
from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.core.record import InvalidValue
from eiapbem.pbem import atomic, bodies, envelope, files, folders, keys
from eiapbem.pbem.email import Person, make_draft, subject_for
from eiapbem.pbem.errors import NotForYou
from eiapbem.pbem.folders import GameFolders
from eiapbem.pbem import dice as pdice
from eiapbem.core.dice import Dice
from eiapbem.rules.economy import victory
from eiapbem.rules.model import POWERS, GameState, Options, PlayerKind
from eiapbem.rules import skips, turn
from eiapbem.rules.scenario import initial_state

from . import inbox
from .session import PLAYER_TYPES, GameData, Session, check_versions, game_names, scrypt_params, write_identity

_WORDS = "amber birch cedar delta ember fjord grove harbor iris juniper kestrel lumen maple north opal pine quartz river sable tundra umber violet willow yarrow zephyr".split()


@dataclass(frozen=True)
class Player:
    power: str
    name: str
    email: str
    type: str

    def check(self) -> None:
        if self.power not in POWERS:
            raise IllegalAction(f"{self.power!r} is not a major power; use one of {' '.join(POWERS)}")
        if self.type not in PLAYER_TYPES:
            raise IllegalAction(f"{self.type!r} is not a player type; use one of {', '.join(PLAYER_TYPES)}")
        if self.type.startswith("ai-"):
            return  # the computer needs no name or address (4.2.3)
        Person(self.name, self.email).checked()


def one_time_password() -> str:
    """Five words and two digits (about 35 bits): enough for a key file that is re-sealed at once."""
    return "-".join(secrets.choice(_WORDS) for _ in range(5)) + f"-{secrets.randbelow(100):02d}"


@dataclass
class Created:
    session_roles: list
    one_time: dict
    gamestart: Path


def options_from_flags(flags: list[str]) -> Options:
    names = {f.replace("_", "-"): f for f in Options.__dataclass_fields__}
    values = {}
    for flag in flags:
        if flag not in names:
            raise IllegalAction(f"{flag!r} is not a game option of 4.1.1; the options are: {', '.join(sorted(names))}")
        values[names[flag]] = True
    return Options(**values)


def new_game(
    home: Path,
    game: str,
    scenario: str,
    players: list[Player],
    *,
    bids: Mapping[str, int],
    options: Options,
    passwords: Mapping[str, str],
    host_password: str,
    host: Person | None = None,
    wars: list[tuple[str, str]] | None = None,
    rng: Callable[[int], bytes] = os.urandom,
    follow: tuple[str, ...] = (),
    computer: Any = None,
) -> Created:
    """The host's new game: keys, the first state, the gamestart file and the host's save.

    ``follow``: powers played by the computer whose key file is made all the same (with a one-time password,
    and no email draft), so that a folder can follow the game for them: every client plays a computer power's
    slots itself (``eiapbem campaign`` follows all of them).  ``computer``: ``Session.create``'s."""
    home = Path(home)
    folders.check_game_name(game)
    if game in game_names(home):
        raise IllegalAction(f"{home} already holds a game called {game}; choose another name")
    by_power: dict[str, Player] = {}
    for player in players:
        player.check()
        if player.power in by_power:
            raise IllegalAction(f"{player.power} is given two players")
        by_power[player.power] = player
    missing = [p for p in POWERS if p not in by_power]
    if missing:
        raise IllegalAction(f"every power needs a player; missing: {' '.join(missing)}")
    hosts = [p for p in by_power.values() if p.type == "host"]
    if len(hosts) > 1:
        raise IllegalAction("only one power can be the host's own (type host)")
    if host is None:
        if not hosts:
            raise IllegalAction("name the host with --host NAME:EMAIL when the host plays no power")
        host = Person(hosts[0].name, hosts[0].email)
    host.checked()
    for b, v in bids.items():
        if b not in POWERS or not isinstance(v, int) or v < 0:
            raise IllegalAction(f"a victory point bid is a power and a whole number of 0 or more, not {b}={v}")
    local = [p.power for p in by_power.values() if p.type in ("host", "hotseat")]
    if not any(p.type in ("host", "client", "hotseat") for p in by_power.values()) and not follow:
        raise IllegalAction("every power is played by the computer; at least one needs a human player")
    if not host_password:
        raise IllegalAction("the host's key needs a password")
    passwords = dict(passwords)
    for p in local:
        if passwords.get(p):
            continue
        if options.pbem_hotseat_passwords:
            raise IllegalAction(f"{p} is played at this computer and needs its own password (4.1.1 PBEM-Hotseat Passwords)")
        # 4.1.1 PBEM-Hotseat Passwords off: a power at the host's computer without a password of its own
        # is opened with the host's password (docs/decisions.md).
        passwords[p] = host_password
    if options.pbem_hotseat_passwords:
        # On, each power's files are protected from its opponents at the same computer (000:38).
        seen: dict[str, str] = {"host": host_password}
        for p in sorted(local):
            same = [q for q, pw in seen.items() if pw == passwords[p] and q != p]
            if same:
                raise IllegalAction(f"{p}'s password is the same as {same[0]}'s; with PBEM-Hotseat Passwords "
                                    "(4.1.1) every power at this computer has its own")
            seen[p] = passwords[p]

    wars = sorted({(a, t) for a, t in (wars or [])})
    sc = scenario_file.resolve(scenario) if isinstance(scenario, str) else scenario
    ids = {r: keys.Identity.generate(r, rng) for r in envelope.POWERS + ("host",)}
    roster = {r: i.public() for r, i in ids.items()}
    gid = rng(16)  # a seeded source only in `eiapbem campaign` (client/campaign.py)
    types = {p: by_power[p].type for p in POWERS}
    state = first_state(sc, options, types, dict(bids), wars, gid, roster)
    meta = {
        "versions": turn.versions(ai),  # checked at join and whenever a save is opened (rules.turn)
        "release": eiapbem.__version__,  # the release that plays them: what a player of this game installs (issue 29)
        "scenario": sc["id"],
        "host": {"name": host.name, "email": host.address},
        "players": {p: {"name": by_power[p].name, "email": by_power[p].email, "type": by_power[p].type} for p in POWERS},
    }
    body = {"meta": meta, "options": options.to_obj(), "bids": {p: int(bids.get(p, 0)) for p in POWERS},
            "state_hash": state.state_hash(),
            # 14.6: the scenario's identity; every client compares it with its own copy on joining.
            "scenario_hash": scenario_file.digest(sc)}
    if sc.get("based_on"):
        meta["based_on"] = sc["based_on"]
    if wars:
        # A GAP selection's pre-existing wars (4.2.10): the clients need them to make the same first state.
        body["wars"] = [list(w) for w in wars]
    f = GameFolders(home).ensure()
    sealed, chain = files.create_gamestart(ids["host"], roster, game, gid, body, rng=rng)
    gs_path = f.put(f.commout, folders.gamestart_name(game), sealed.data)
    inbox.keep_sent(f, gs_path.name, sealed.data)  # an audit starts from it (issue 20)
    write_identity(home, game, ids["host"], host_password, rng)
    for p in local:
        write_identity(home, game, ids[p], passwords[p], rng)
    one_time = {}
    for p in POWERS:
        computer_power = by_power[p].type.startswith("ai-")
        if p in local or (computer_power and p not in follow):
            continue  # an AI power has no player to send keys to: every client plays it
        otp = one_time_password()
        one_time[p] = otp
        kp = f.put(f.commout, folders.identity_name(game, p), keys.seal_identity(ids[p], otp, game, rng=rng, **scrypt_params()))
        row = by_power[p]
        if not computer_power:
            _gamestart_draft(f, game, gs_path, kp, host, Person(row.name, row.email), p)
    Session.create(home, game, ids["host"], chain, GameData(state, starting_meta(bodies.decode(
        bodies.GamestartMeta, {"based_on": "", **meta}, game, "who plays the game"))), rng=rng, computer=computer)
    return Created(sorted(local), one_time, gs_path)


def starting_meta(gm: bodies.GamestartMeta) -> bodies.SaveMeta:
    """The save's record of who plays what, from the gamestart's: nothing of the host's notes or sealed orders yet."""
    return bodies.SaveMeta(gm.scenario, gm.players, gm.host, gm.versions, based_on=gm.based_on, release=gm.release)


def first_state(scenario: str | dict, options: Options, types: Mapping[str, str], bids: Mapping[str, int],
                wars: list, gid: bytes, roster: Mapping[str, envelope.RosterEntry]) -> GameState:
    """The game's first state, the same for the host and every client: the scenario with its players'
    kinds (``PowerState.controller``) and the AI start bonus of 4.2.3 (000:148-154), rolled with the
    game creation's dice (``pbem.dice.gamestart_seed``: the game id and the roster's dice commitments); at the fast
    pace (no option ``full_pace``) each human power's reinforcement phase skipped while nothing is due (13.9,
    ``skips.pace_defaults``)."""
    kinds = {p: PlayerKind(t) if t.startswith("ai-") else PlayerKind.HUMAN for p, t in types.items()}
    sc = world.load_scenario(scenario) if isinstance(scenario, str) else scenario
    try:
        state = initial_state(sc, world.load_raw(), options=options, players=kinds,
                              vp_bids=dict(bids), wars=wars)
    except (InvalidValue, KeyError, TypeError, ValueError) as err:  # a scenario file the validator let through
        raise BadData(f"the scenario {sc.get('id')!r} cannot start a game: {err}",
                      hint="'eiapbem scenario check FILE' checks the file") from err
    seed = pdice.gamestart_seed(gid, {r: e.dice for r, e in roster.items()})
    return skips.pace_defaults(victory.with_ai_start_bonuses(state, Dice(seed)))


def _gamestart_draft(f: GameFolders, game: str, gs: Path, key: Path, host: Person, to: Person, power: str) -> Path:
    """One email per client: the gamestart and that client's key file (the one-time password goes separately)."""
    draft = make_draft(host, [to], subject_for(game, f"gamestart for {power}"), [gs, key],
                       body=(f"You play {power} in our game {game} of Empires in Arms.\n"
                             f"Put both files in your commin folder and run:\n"
                             f"  eiapbem join commin/{gs.name} --power {power} --email {to.address}\n"
                             "I will tell you the one-time password for your key file separately.\n"))
    out = f.commout / f"{game}_gamestart_for_{folders.POWER_NAMES[power]}.eml"
    atomic.write_atomic(out, draft)
    return out


def join(home: Path, gamestart: Path, power: str, one_time: str, password: str, email: str,
         key_file: Path | None = None, scenario: Path | None = None, *,
         rng: Callable[[int], bytes] = os.urandom, computer: Any = None) -> Session:
    """4.2.2 "As Client": take the key file, load the gamestart (the only time it is used, 000:130), save."""
    home = Path(home)
    if power not in POWERS:
        raise IllegalAction(f"{power!r} is not a major power; use one of {' '.join(POWERS)}")
    data = folders.read_limited(gamestart)
    env = envelope.parse(data, gamestart.name)
    game = env.header.game
    if game in game_names(home):
        raise IllegalAction(f"{home} already holds the game {game}; a gamestart file is loaded only once (000:130)")
    kp = key_file or gamestart.parent / folders.identity_name(game, power)
    ident = keys.open_identity(folders.read_limited(kp, keys.MAX_KEY_FILE), one_time, kp.name)
    if ident.role != power:
        raise NotForYou(f"{kp.name} holds the keys of {ident.role}, not of {power}")
    chain, body = files.open_gamestart(data, [ident], gamestart.name)
    start = start_data(body, chain, gamestart.name, scenario)
    row = start.meta.players[power]
    if row.email.lower() != email.lower():
        raise IllegalAction(f"the host registered {row.email} for {power}, not {email}; check the address or ask the host")
    write_identity(home, game, ident, password, rng)
    s = Session.create(home, game, ident, chain, start, rng=rng, computer=computer)
    inbox.keep_received(s.folders, gamestart.name, data)  # an audit starts from it (issue 20)
    return s


def start_data(body: Any, chain: Any, name: str, scenario: Path | None = None) -> GameData:
    """The game's first state and players from an opened gamestart body (join, and ``eiapbem audit``)."""
    meta = body.get("meta") if isinstance(body, dict) else None
    check_versions(meta.get("versions") if isinstance(meta, dict) else None, name)
    raw = dict(body) if isinstance(body, dict) else body
    if isinstance(raw, dict):
        raw.setdefault("wars", [])  # absent when the game has none
    gs = bodies.decode(bodies.GamestartBody, raw, name, "a gamestart")
    body = gs.to_obj()
    meta = starting_meta(gs.meta)
    options = Options.from_obj(body["options"], "options")
    wars = body["wars"]
    types = {p: meta.players[p].type for p in POWERS}
    sc = joining_scenario(meta.scenario, body["scenario_hash"] or None, scenario, name)
    state = first_state(sc, options, types, body["bids"], [(a, t) for a, t in wars], chain.gid,
                        chain.roster)
    if state.state_hash() != body["state_hash"]:
        raise IllegalAction(
            f"{name} starts from another state than this eiapbem makes from scenario {meta.scenario}",
            hint="the host and every player need the same eiapbem version",
        )
    return GameData(state, meta)


def joining_scenario(sid: str, want: Any, path: Path | None, gamestart: str) -> dict:
    """The client's copy of the game's scenario, refused unless its hash is the host's (14.6)."""
    if path is not None:
        sc = scenario_file.resolve(str(path))
        if sc.get("id") != sid:
            raise IllegalAction(f"{path.name} is the scenario {sc.get('id')!r}, but {gamestart} plays {sid!r}; "
                                "give the host's scenario file")
    elif sid in world.scenario_ids():
        sc = world.load_scenario(sid)
    else:
        raise IllegalAction(f"{gamestart} plays the scenario {sid!r} from a scenario file (14.6); "
                            "get the file from the host and join again with --scenario FILE")
    if want is not None and scenario_file.digest(sc) != want:
        raise IllegalAction(
            f"your copy of the scenario {sid!r} differs from the host's (hash {scenario_file.digest(sc)[:16]} "
            f"instead of {str(want)[:16]}); nothing was joined",
            hint="ask the host for the scenario file the game was created with and join again with --scenario FILE",
        )
    return sc


def players_from_selection(sel: Any, types: Mapping[str, str]) -> tuple[list[Player], dict[str, int], list[tuple[str, str]]]:
    """The players, bids and pre-existing wars of a GAP selection (4.2.11, 000:278-280).

    The selection gives each power's name, address, victory point bid and the
    wars it starts as aggressor; the host still says how each is played
    (``types``: power -> host/client/hotseat/ai-easy/ai-medium/ai-hard; a power not named is a client).
    """
    for p, t in types.items():
        if p not in POWERS:
            raise IllegalAction(f"{p!r} is not a major power; use one of {' '.join(POWERS)}")
    players = [Player(row.power, row.name, row.email, types.get(row.power, "client")) for row in sel.powers]
    return players, dict(sel.vp_bids), [tuple(w) for w in sel.wars]


def host_session(home: Path, game: str | None, password: str) -> Session:
    return Session.open(home, game, "host", password)


__all__ = ["Created", "Player", "host_session", "join", "new_game", "one_time_password", "options_from_flags",
           "players_from_selection"]
