"""Third Party Combat System results (4.1.1, 000:36): one result file signed by both sides.

The two players fight a field combat with their own combat system, then:

1. one side writes the result file (``write``: the battle, the winner, each unit's
   losses) signed with its own key: ``eiapbem battle result BATTLE --winner … --loss …``;
2. the other side checks it and adds its signature (``countersign``):
   ``eiapbem battle sign FILE``;
3. the attacker, in its land slot, imports it (``import_action``: both signatures
   checked against the game's roster) as the action ``battle.external-result``:
   ``eiapbem battle import FILE``.

The action travels in the attacker's turn file with both signatures; every client
checks them again when it loads the file (``check_actions``), so a result the other
side did not sign is refused by everyone.  The signed message is the canonical
encoding of ``{game id, battle, winner, losses}`` under a label of its own.

The file is JSON: ``{"battle", "winner", "losses": [...], "signatures": {POWER: hex}}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from eiapbem.core import canonical
from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.pbem.errors import BadSignature
from eiapbem.rules.combat.external import ExternalResult, parse_losses, parse_signatures, signers

LABEL = "eiapbem/v1/third-party-combat-result"
MAX_FILE = 64 * 1024


def message(gid: bytes, battle: str, winner: str, losses: Iterable[str]) -> bytes:
    return canonical.encode({"label": LABEL, "game": gid, "battle": battle, "winner": winner,
                             "losses": sorted(losses)})


def sign(identity: Any, gid: bytes, battle: str, winner: str, losses: Iterable[str]) -> str:
    return identity.signer.sign(message(gid, battle, winner, losses)).hex()


def _good(roster: Mapping[str, Any], power: str, sig: bytes, msg: bytes) -> bool:
    entry = roster.get(power)
    if entry is None:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(entry.sign).verify(sig, msg)
    except InvalidSignature:
        return False
    return True


def read(path: Path) -> dict[str, Any]:
    try:
        data = path.read_bytes()
    except OSError as err:
        raise BadData(f"{path}: cannot read the result file ({err.strerror})") from err
    if len(data) > MAX_FILE:
        raise BadData(f"{path.name} is too large for a combat result file")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise BadData(f"{path.name} is not a combat result file (JSON)") from err
    if not (isinstance(doc, dict) and set(doc) == {"battle", "winner", "losses", "signatures"}
            and isinstance(doc["losses"], list) and isinstance(doc["signatures"], dict)
            and all(isinstance(x, str) for x in doc["losses"])):
        raise BadData(f"{path.name} is not a combat result file: it needs battle, winner, losses and signatures")
    return doc


def _write(path: Path, doc: Mapping[str, Any]) -> None:
    try:
        path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    except OSError as err:
        raise BadData(f"{path}: cannot write the result file ({err.strerror})") from err


def write(path: Path, state: Any, identity: Any, gid: bytes, battle: str, winner: str, losses: list[str]) -> None:
    """Step 1: the result, checked against the battle and signed by ``identity``'s power."""
    b = state.battles.get(battle)
    if b is None:
        raise IllegalAction(f"there is no battle {battle!r}", hint="'eiapbem battle report' lists them")
    if identity.role not in signers(b):
        raise IllegalAction(f"{identity.role} did not fight {battle}; its sides sign the result")
    parse_losses(tuple(losses))
    doc = {"battle": battle, "winner": winner, "losses": sorted(losses),
           "signatures": {identity.role: sign(identity, gid, battle, winner, losses)}}
    _write(path, doc)


def countersign(path: Path, state: Any, identity: Any, gid: bytes, roster: Mapping[str, Any]) -> dict[str, Any]:
    """Step 2: the other side signs the same result (after the first signature is checked)."""
    doc = read(path)
    _check(doc, state, gid, roster, need_all=False, name=path.name)
    b = state.battles[doc["battle"]]
    if identity.role not in signers(b):
        raise IllegalAction(f"{identity.role} did not fight {doc['battle']}; its sides sign the result")
    doc["signatures"][identity.role] = sign(identity, gid, doc["battle"], doc["winner"], doc["losses"])
    _write(path, doc)
    return doc


def _check(doc: Mapping[str, Any], state: Any, gid: bytes, roster: Mapping[str, Any], *, need_all: bool,
           name: str) -> None:
    b = state.battles.get(doc["battle"])
    if b is None:
        raise IllegalAction(f"{name} is the result of {doc['battle']}, which is not a battle of this game now")
    msg = message(gid, doc["battle"], doc["winner"], doc["losses"])
    for power, sig in sorted(doc["signatures"].items()):
        try:
            raw = bytes.fromhex(sig)
        except (TypeError, ValueError):
            raw = b""
        if power not in signers(b) or not _good(roster, power, raw, msg):
            raise BadSignature(f"{name}: {power}'s signature does not match this result of {doc['battle']}; "
                               "nothing was imported")
    if need_all and sorted(doc["signatures"]) != list(signers(b)):
        missing = [p for p in signers(b) if p not in doc["signatures"]]
        raise IllegalAction(f"{name} is not signed by {' and '.join(missing)} yet: 'eiapbem battle sign {name}' "
                            "at that player's computer")


def import_action(path: Path, state: Any, gid: bytes, roster: Mapping[str, Any]) -> ExternalResult:
    """Step 3: the action carrying the result and both checked signatures."""
    doc = read(path)
    _check(doc, state, gid, roster, need_all=True, name=path.name)
    return ExternalResult(battle=doc["battle"], winner=doc["winner"], losses=tuple(doc["losses"]),
                          signatures=tuple(f"{p}:{s}" for p, s in sorted(doc["signatures"].items())))


def check_actions(actions: Iterable[Any], gid: bytes, roster: Mapping[str, Any], name: str) -> None:
    """Every client, loading a turn file: each imported result carries good signatures of both sides."""
    for a in actions:
        if not isinstance(a, ExternalResult):
            continue
        msg = message(gid, a.battle, a.winner, a.losses)
        for power, sig in sorted(parse_signatures(a.signatures).items()):
            if not _good(roster, power, sig, msg):
                raise BadSignature(f"{name}: the result of {a.battle} carries a signature of {power} that does not "
                                   "match; the file is refused")


__all__ = ["check_actions", "countersign", "import_action", "message", "read", "sign", "write"]
