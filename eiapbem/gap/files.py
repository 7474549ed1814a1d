"""The GAP's files (docs/file-format.md section 10): arbitrator key, bids, selection.

* The arbitrator's key: an identity of role ``arbitrator`` under a password
  (``keys.seal_identity``) and its published public half, a four-line text file
  with a checked fingerprint (10.1).
* Bid files ``YourName_GameName.bid`` (4.2.10, ``000:272``): name and address in
  the clear header, the seven bids, the requested wars and the game password
  sealed to the arbitrator only, signed by a one-off bidder key (10.2).
* The selection file ``GameName.sel`` (4.2.11, ``000:278``): the arbitration's
  outcome with the seven bids and passwords, signed by and sealed to the
  arbitrator (10.3); ``read_selection`` is what ``eiapbem new --import-bids``
  uses to fill the powers' names, addresses, bids and pre-existing wars.

Every reader refuses a bad file with one sentence naming it (a ``BadFile``
subclass) and changes nothing; writers return bytes and leave writing the
file to the caller.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from eiapbem.core.errors import BadFile
from eiapbem.pbem import crypto, envelope, headers, keys
from eiapbem.pbem.envelope import Envelope
from eiapbem.pbem.errors import BadFormat, BadSignature, NotForYou, WrongGame, WrongKind
from eiapbem.pbem.folders import bid_name, read_limited
from eiapbem.pbem.keys import Identity

from .arbitrate import AWARD_ORDER, PLAYERS, POWER_NAMES, POWERS, BadBid, Bid, Result, arbitrate, pre_existing_wars

Rng = crypto.Rng

#: The ``game`` field of an arbitrator's identity file (it belongs to no one game).
KEY_GAME = "arbitrator"
PUBLIC_KEY_TITLE = "eiapbem arbitrator key 1"
MAX_PUBLIC_KEY = 1024
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


class WrongArbitrator(NotForYou):
    """A bid or selection file sealed for another arbitrator key, or a key file that is not an arbitrator's."""


class BadSelection(BadFile):
    """A selection file whose contents do not follow from its own bids."""


# --- the arbitrator's key (10.1) ----------------------------------------------------


def arbitrator_fingerprint(sign: bytes, enc: bytes) -> bytes:
    """``SHA-256("eiapbem/v1/arbitrator-key" 0x00 || sign || enc)``."""
    return hashlib.sha256(b"eiapbem/v1/arbitrator-key\x00" + sign + enc).digest()


@dataclass(frozen=True)
class ArbitratorKey:
    """The arbitrator's public keys, as published for the bidders."""

    sign: bytes
    enc: bytes

    @property
    def fingerprint(self) -> bytes:
        return arbitrator_fingerprint(self.sign, self.enc)

    @property
    def short(self) -> str:
        """The fingerprint people compare: its first 8 bytes in hex."""
        return self.fingerprint[:8].hex()

    def to_text(self) -> str:
        return f"{PUBLIC_KEY_TITLE}\nsign {self.sign.hex()}\nenc {self.enc.hex()}\nfingerprint {self.short}\n"

    @classmethod
    def of(cls, identity: Identity) -> "ArbitratorKey":
        pub = identity.public()
        return cls(pub.sign, pub.enc)

    @classmethod
    def from_text(cls, data: bytes, name: str = "the arbitrator key") -> "ArbitratorKey":
        if data.startswith(envelope.MAGIC):
            raise WrongArbitrator(
                f"{name} is a sealed file, not the arbitrator's public key; give the .pub file the arbitrator published"
            )
        try:
            lines = data.decode("utf-8").split("\n")
        except UnicodeDecodeError as err:
            raise BadFormat(f"{name} is not an arbitrator public key (it is not text)") from err
        if len(lines) != 5 or lines[0] != PUBLIC_KEY_TITLE or lines[4] != "":
            raise BadFormat(f"{name} is not an arbitrator public key (it must be the four lines 'eiapbem gap arbitrator-key' wrote)")
        parts = [line.partition(" ") for line in lines[1:4]]
        if [p[0] for p in parts] != ["sign", "enc", "fingerprint"] or not all(_HEX64.match(p[2]) for p in parts[:2]):
            raise BadFormat(f"{name} is not an arbitrator public key (its sign and enc lines must hold 64 hex digits)")
        key = cls(bytes.fromhex(parts[0][2]), bytes.fromhex(parts[1][2]))
        if parts[2][2] != key.short:
            raise BadFormat(f"{name} is damaged: its keys do not give the fingerprint it names; ask the arbitrator for it again")
        return key


def new_arbitrator_key(
    password: str,
    *,
    logn: int = crypto.STRONG_LOGN,
    r: int = crypto.STRONG_R,
    p: int = crypto.STRONG_P,
    rng: Rng = os.urandom,
) -> tuple[bytes, ArbitratorKey]:
    """A new arbitrator: its key file (sealed under ``password``) and its public key."""
    identity = Identity.generate("arbitrator", rng=rng, dice_n=1)
    data = keys.seal_identity(identity, password, KEY_GAME, logn=logn, r=r, p=p, rng=rng)
    return data, ArbitratorKey.of(identity)


def open_arbitrator_key(data: bytes, password: str, name: str = "the arbitrator key file") -> Identity:
    """Open the arbitrator's key file with its password."""
    identity = keys.open_identity(data, password, name)
    if identity.role != "arbitrator":
        raise WrongArbitrator(f"{name} is the key file of {identity.role}, not of an arbitrator")
    return identity


def load_arbitrator_key(path: Path, password: str) -> Identity:
    return open_arbitrator_key(read_limited(path, keys.MAX_KEY_FILE), password, path.name)


# --- bid files (10.2) ----------------------------------------------------------------


def bid_file_name(player: str, game: str) -> str:
    """``YourName_GameName.bid``: spaces as ``_``, ``.`` and ``'`` left out (docs/file-format.md 9)."""
    stem = player.replace(" ", "_").replace(".", "").replace("'", "")
    return bid_name(stem, game)


def write_bid(bid: Bid, arbitrator: ArbitratorKey, rng: Rng = os.urandom) -> crypto.Sealed:
    """Seal a bid to the arbitrator, signed by a one-off bidder key that is then forgotten."""
    bid.verify()
    if bid.password is None:
        raise BadBid(f"the bid of {bid.email} has no game password")
    signer = Ed25519PrivateKey.from_private_bytes(rng(32))
    return crypto.seal(
        kind="bid",
        game=bid.game,
        gid=bytes(16),
        slot="bid",
        author=envelope.BIDDER,
        signer=signer,
        to=[crypto.ToKey("arbitrator", arbitrator.enc)],
        body=bid.to_obj(),
        bidder=headers.Bidder(bid.name, bid.email),
        bidkey=signer.public_key().public_bytes_raw(),
        arbfp=arbitrator.fingerprint,
        rng=rng,
    )


def _parse_kind(data: bytes, name: str, kind: str) -> Envelope:
    env = envelope.parse(data, name)
    if env.header.kind != kind:
        raise WrongKind(f"{name} is a {env.header.kind} file, not a {kind} file")
    return env


def peek_bid(data: bytes, name: str = "the bid file") -> headers.BidHeader:
    """The clear header of a bid file (game, name, address), checked but not opened."""
    env = _parse_kind(data, name, "bid")
    h = env.header
    assert isinstance(h, headers.BidHeader)  # its kind, checked above
    try:
        crypto.verify(env, h.bidkey, name)
    except BadSignature as err:
        raise BadSignature(f"{name} was changed after it was signed; it is not a bid file anyone can use") from err
    return h


@dataclass(frozen=True)
class OpenedBid:
    """A bid file the arbitrator opened: the bid, the file's hash and its name."""

    bid: Bid
    hash: bytes
    name: str

    @property
    def fingerprint(self) -> str:
        return crypto.fingerprint(self.hash)


def _check_arbitrator(h: headers.BidHeader | headers.SelectionHeader, me: Identity, name: str) -> None:
    mine = ArbitratorKey.of(me)
    if h.arbfp != mine.fingerprint:
        raise WrongArbitrator(
            f"{name} is sealed for the arbitrator key {h.arbfp[:8].hex()}, not for this one ({mine.short})",
            hint="use the arbitrator key the file was made for, or ask its maker to use the key you published",
        )


def open_bid(data: bytes, arbitrator: Identity, name: str = "the bid file") -> OpenedBid:
    """Open one bid file (docs/file-format.md 10.2, in the order the spec gives)."""
    env = _parse_kind(data, name, "bid")
    h = env.header
    assert isinstance(h, headers.BidHeader)  # its kind, checked above
    _check_arbitrator(h, arbitrator, name)
    try:
        crypto.verify(env, h.bidkey, name)
    except BadSignature as err:
        raise BadSignature(
            f"{name} was changed after it was signed (its signature does not match the bidder key in it)",
            hint=f"ask {h.bidder.email} to send the bid again",
        ) from err
    fk = crypto.unwrap_key(env, "arbitrator", arbitrator.decrypter, name)
    obj = crypto.open_body(env, fk, name)
    try:
        bid = Bid.from_obj(obj)
    except BadBid as err:
        raise BadBid(f"{name} holds a bid the arbitrator must refuse: {err}") from err
    if (bid.game, bid.name, bid.email) != (h.game, h.bidder.name, h.bidder.email):
        raise BadBid(f"{name} names {h.bidder.name} <{h.bidder.email}> of game {h.game} in clear but not inside; it was made wrongly")
    return OpenedBid(bid, crypto.file_hash(env), name)


def open_bids(files: Sequence[tuple[str, bytes]], arbitrator: Identity, game: str | None = None) -> list[OpenedBid]:
    """Open the bid files of one game: exactly seven, one game, one file per address."""
    if len(files) != PLAYERS:
        raise BadBid(f"arbitration needs exactly {PLAYERS} bid files, one per player; {len(files)} were given")
    opened = [open_bid(data, arbitrator, name) for name, data in files]
    games = Counter(o.bid.game for o in opened)
    want = game if game is not None else sorted(games.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    for o in opened:
        if o.bid.game != want:
            raise WrongGame(
                f"{o.name} is a bid for game {o.bid.game}, but "
                + (f"you asked for game {want}" if game is not None else f"the other bids are for {want}"),
                hint="give the seven bid files of one game",
            )
    seen: dict[str, str] = {}
    for o in opened:
        key = o.bid.email.lower()
        if key in seen:
            raise BadBid(
                f"{seen[key]} and {o.name} both come from the address {o.bid.email}",
                hint="keep only the player's latest bid",
            )
        seen[key] = o.name
    return opened


# --- the signed results text (10.4) ----------------------------------------------------

_RESULTS_LABEL = b"eiapbem/v1/gap-results\x00"
_RESULTS_SIG_RE = re.compile(r"\nSigned by the arbitrator key ([0-9a-f]{16}): ([0-9a-f]{128})\n\Z")


def sign_results(body: str, arbitrator: Identity) -> str:
    """The results text with the arbitrator's signature line appended."""
    sig = arbitrator.signer.sign(_RESULTS_LABEL + body.encode("utf-8"))
    return body + f"\nSigned by the arbitrator key {ArbitratorKey.of(arbitrator).short}: {sig.hex()}\n"


def split_results(text: str) -> tuple[str, str | None, bytes | None]:
    """(the text without its signature line, the key fingerprint it names, the signature); no line: (text, None, None)."""
    m = _RESULTS_SIG_RE.search(text)
    if m is None:
        return text, None, None
    return text[: m.start()], m.group(1), bytes.fromhex(m.group(2))


def check_results_signature(text: str, key: ArbitratorKey, name: str = "the results text") -> str:
    """Check the arbitrator's signature of a results text; return the text without the signature line."""
    body, short, sig = split_results(text)
    if sig is None:
        raise BadSignature(f"{name} carries no arbitrator signature line; it was not written by eiapbem gap resolve")
    if short != key.short:
        raise WrongArbitrator(f"{name} is signed by the arbitrator key {short}, not by {key.short}")
    try:
        Ed25519PublicKey.from_public_bytes(key.sign).verify(sig, _RESULTS_LABEL + body.encode("utf-8"))
    except InvalidSignature as err:
        raise BadSignature(
            f"{name} was changed after the arbitrator signed it", hint="ask the arbitrator for the original results"
        ) from err
    return body


# --- the selection file (10.3) ---------------------------------------------------------


def selection_body(result: Result, hashes: Mapping[str, bytes]) -> dict[str, Any]:
    return {
        "game": result.game,
        "gb_fr_war": result.gb_fr_war,
        "seed": result.seed,
        "bids": [b.to_obj() for b in result.bids],
        "awards": {a.power: a.email for a in result.awards},
        "files": {b.email: hashes[b.email] for b in result.bids},
    }


def write_selection(result: Result, hashes: Mapping[str, bytes], arbitrator: Identity, rng: Rng = os.urandom) -> crypto.Sealed:
    """``GameName.sel``: signed by the arbitrator and sealed to the arbitrator's own key."""
    if any(b.password is None for b in result.bids):
        raise BadBid("a selection file needs the seven bids with their passwords, as the bid files hold them")
    me = ArbitratorKey.of(arbitrator)
    return crypto.seal(
        kind="selection",
        game=result.game,
        gid=bytes(16),
        slot="selection",
        author="arbitrator",
        signer=arbitrator.signer,
        to=[crypto.ToKey("arbitrator", me.enc)],
        body=selection_body(result, hashes),
        arbfp=me.fingerprint,
        rng=rng,
    )


@dataclass(frozen=True)
class PowerSelection:
    """Who plays one power (4.2.11, ``000:280``): name, address, victory point bid, wars, password."""

    power: str
    name: str
    email: str
    vp_bid: int
    #: The powers this power starts at war with as the aggressor (4.2.10, ``000:272``).
    wars: tuple[str, ...]
    #: The player's game password from the bid (``000:272``, ``000:278``).
    password: str = field(repr=False)


@dataclass(frozen=True)
class Selection:
    """A checked GAP selection, ready for ``eiapbem new GameName --import-bids GameName.sel``.

    Feed it to the first state of the game as::

        initial_state(scenario, world,
                      options=Options(gb_and_fr_start_at_war=sel.gb_fr_war, ...),
                      vp_bids=sel.vp_bids, wars=sel.wars)

    ``powers`` are in the order ``AU FR GB PR RU SP TU``.  The host still sets
    who is the email host and who are clients (4.2.11, ``000:280``).
    """

    game: str
    gb_fr_war: bool
    seed: bytes
    powers: tuple[PowerSelection, ...]
    #: The result of the draw, as re-run when the file was read.
    result: Result = field(repr=False, compare=False)

    def power(self, power: str) -> PowerSelection:
        for p in self.powers:
            if p.power == power:
                return p
        raise KeyError(power)

    @property
    def vp_bids(self) -> dict[str, int]:
        """Each power's victory point bid, added to its victory level (12.1.1, ``000:2050``)."""
        return {p.power: p.vp_bid for p in self.powers}

    @property
    def wars(self) -> list[tuple[str, str]]:
        """The pre-existing wars ``(aggressor, target)``, sorted; with the option, France-Britain too."""
        return pre_existing_wars(self.result)

    @property
    def passwords(self) -> dict[str, str]:
        return {p.power: p.password for p in self.powers}


def _selection_from(result: Result) -> Selection:
    by_email = {b.email: b for b in result.bids}
    powers = []
    for power in POWERS:
        a = result.award(power)
        password = by_email[a.email].password
        assert password is not None
        powers.append(PowerSelection(power, a.name, a.email, a.cost, a.wars, password))
    return Selection(result.game, result.gb_fr_war, result.seed, tuple(powers), result)


def open_selection(data: bytes, arbitrator: Identity, name: str = "the selection file", *, game: str | None = None) -> Selection:
    """Open and check a selection file: signature, game, and a re-run of the draw it records."""
    env = _parse_kind(data, name, "selection")
    h = env.header
    assert isinstance(h, headers.SelectionHeader)  # its kind, checked above
    if game is not None and h.game != game:
        raise WrongGame(f"{name} is the selection of game {h.game}, not of game {game}", hint="give the game's own .sel file")
    _check_arbitrator(h, arbitrator, name)
    try:
        crypto.verify(env, arbitrator.public().sign, name)
    except BadSignature as err:
        raise BadSignature(
            f"{name} was changed after the arbitrator signed it", hint="ask the arbitrator for the file again"
        ) from err
    fk = crypto.unwrap_key(env, "arbitrator", arbitrator.decrypter, name)
    obj = crypto.open_body(env, fk, name)
    keys_ = {"game", "gb_fr_war", "seed", "bids", "awards", "files"}
    if not isinstance(obj, dict) or set(obj) != keys_:
        raise BadSelection(f"{name} does not hold a selection in the expected form")
    if obj["game"] != h.game or not isinstance(obj["gb_fr_war"], bool) or not isinstance(obj["seed"], bytes):
        raise BadSelection(f"{name} does not hold a selection of game {h.game} in the expected form")
    if not isinstance(obj["bids"], list) or len(obj["bids"]) != PLAYERS:
        raise BadSelection(f"{name} does not hold exactly {PLAYERS} bids")
    try:
        bids = [Bid.from_obj(b) for b in obj["bids"]]
        result = arbitrate(bids, gb_fr_war=obj["gb_fr_war"])
    except BadBid as err:
        raise BadSelection(f"{name} holds bids that cannot be arbitrated: {err}") from err
    if result.game != h.game or [b.to_obj() for b in result.bids] != obj["bids"]:
        raise BadSelection(f"{name} holds bids of another game or in another order than its header says")
    if result.seed != obj["seed"] or {a.power: a.email for a in result.awards} != obj["awards"]:
        raise BadSelection(f"{name} records another draw than its own bids give; it was not written by eiapbem gap resolve")
    files = obj["files"]
    if not isinstance(files, dict) or set(files) != {b.email for b in bids} or not all(
        isinstance(v, bytes) and len(v) == 32 for v in files.values()
    ):
        raise BadSelection(f"{name} does not name the bid file of each of the seven players")
    return _selection_from(result)


def read_selection(path: Path | str, arbitrator: Identity, *, game: str | None = None) -> Selection:
    """Read ``GameName.sel`` for ``eiapbem new GameName --import-bids GameName.sel`` (4.2.11, ``000:278-280``).

    ``arbitrator`` is the arbitrator's opened key (``load_arbitrator_key(path,
    password)``): the selection is sealed to it, as the bids were.  ``game``,
    when given, must be the selection's game.  Raises a ``BadFile`` subclass
    with one sentence naming the file if the file is damaged, altered, of
    another game, for another arbitrator, or does not follow from its own bids;
    reads nothing else and writes nothing.
    """
    path = Path(path)
    return open_selection(read_limited(path), arbitrator, path.name, game=game)


def bid_files_of(folder: Path, game: str) -> Iterable[Path]:
    """The ``*_GameName.bid`` files in ``folder``, in name order."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(f"_{game}.bid"))


__all__ = [
    "AWARD_ORDER",
    "POWER_NAMES",
    "ArbitratorKey",
    "BadSelection",
    "OpenedBid",
    "PowerSelection",
    "Selection",
    "WrongArbitrator",
    "bid_file_name",
    "check_results_signature",
    "sign_results",
    "split_results",
    "load_arbitrator_key",
    "new_arbitrator_key",
    "open_arbitrator_key",
    "open_bid",
    "open_bids",
    "open_selection",
    "peek_bid",
    "read_selection",
    "write_bid",
    "write_selection",
]
