"""Generate the file-layer test vectors (docs/file-format.md), in the manner of age's test kit.

Fixed keys and fixed randomness (``KeystreamRng``, never ``os.urandom``), so
running this again rebuilds every vector byte for byte.  Each vector is a file
and a line in ``vectors.json``: how it is opened, what must load first, and the
expected outcome (``ok`` or the name of the ``BadFile`` subclass).

Run ``python tests/vectors/generate.py`` from the project root to rewrite them;
``tests/pbem/test_pbem_vectors.py`` checks the committed files equal a fresh build.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from eiapbem.pbem import crypto, envelope, files, keys
from eiapbem.pbem.chain import Step
from eiapbem.core import canonical
from eiapbem.core.dice import Dice

HERE = Path(__file__).resolve().parent
GAME = "Vectors"
GID = bytes.fromhex("5ec7e575ec7e575ec7e575ec7e575ec7")
ROLES = envelope.POWERS + ("host",)
PASSWORD = "vector password"
SLOT_GB = "1805-05/naval/GB"
SLOT_RU = "1805-05/naval/RU"


@dataclass
class Vector:
    name: str
    data: bytes
    description: str
    open: str  # gamestart | turn | identity | backup
    expect: str
    after: list[str] = field(default_factory=list)
    step: list | None = None  # [slot, [roles]]
    dat: bytes | None = None
    check_rolls: bool = False

    def meta(self) -> dict:
        m = {
            "name": self.name,
            "description": self.description,
            "open": self.open,
            "expect": self.expect,
            "after": self.after,
            "step": self.step,
            "check_rolls": self.check_rolls,
            "sha256": hashlib.sha256(self.data).hexdigest(),
        }
        if self.dat is not None:
            m["dat_sha256"] = hashlib.sha256(self.dat).hexdigest()
        return m


def identities(seed: bytes) -> dict[str, keys.Identity]:
    rng = crypto.KeystreamRng(seed)
    return {r: keys.Identity.generate(r, rng, dice_n=16) for r in ROLES}


def reader() -> keys.Identity:
    """The vectors are opened as Russia."""
    return identities(b"vectors/keys")["RU"]


def _flip(data: bytes, pos: int, bit: int = 1) -> bytes:
    b = bytearray(data)
    b[pos] ^= bit
    return bytes(b)


def _with_header(data: bytes, change, signer=None, kind=None) -> bytes:
    env = envelope.parse(data)
    obj = env.header.to_obj()
    change(obj)
    hb = canonical.encode(obj)
    sig = env.signature
    if signer is not None:
        sig = signer.sign(crypto.signed_message(kind or obj["kind"], envelope.prefix_of(hb, env.body)))
    return envelope.assemble(hb, env.body, sig)


def build() -> list[Vector]:
    ids = identities(b"vectors/keys")
    rng = crypto.KeystreamRng(b"vectors/files")
    roster = {r: i.public() for r, i in ids.items()}
    gs, host = files.create_gamestart(ids["host"], roster, GAME, GID, {"scenario": "1805", "options": ["fog-of-war"]}, rng)
    step_gb = [SLOT_GB, ["GB"]]
    step_ru = [SLOT_RU, ["RU"]]
    v: list[Vector] = [Vector("gamestart.pbm", gs.data, "the gamestart file, sealed to every power and the host", "gamestart", "ok")]

    # GB's naval turn, with one recorded roll from the file's seed.
    gb_chain = host
    d = Dice(crypto.dice_seed(ids["GB"].link(1), gb_chain.head, "turn"))
    d.d6("naval/interception/north-sea")
    gb_body = {"actions": [["move", "fleet:GB:1", "north-sea"]], "dice": d.to_obj()}
    t_gb, after_gb = files.write_turn(gb_chain, ids["GB"], Step.one(SLOT_GB, "GB"), SLOT_GB, gb_body, rng=rng)
    ok = dict(after=["gamestart.pbm"], step=step_gb)
    v.append(Vector("turn_gb.pbm", t_gb.data, "Great Britain's naval turn; its recorded roll re-derives", "turn", "ok", check_rolls=True, **ok))

    env = envelope.parse(t_gb.data)
    body_start = len(envelope.MAGIC) + 4 + len(env.header_bytes) + 4
    v += [
        Vector("turn_gb_sig_flip.pbm", _flip(t_gb.data, len(t_gb.data) - 1), "last byte of the signature flipped", "turn", "BadSignature", **ok),
        Vector("turn_gb_body_flip.pbm", _flip(t_gb.data, body_start + 5), "a ciphertext byte flipped", "turn", "BadSignature", **ok),
        Vector("turn_gb_truncated.pbm", t_gb.data[:-1], "one byte short", "turn", "BadFormat", **ok),
        Vector("turn_gb_trailing.pbm", t_gb.data + b"\x00", "one byte after the signature", "turn", "BadFormat", **ok),
        Vector("turn_gb_v2.pbm", t_gb.data.replace(b"EIAPBEM/1", b"EIAPBEM/2", 1), "another format version", "turn", "BadFormat", **ok),
        Vector("empty.pbm", b"", "an empty file", "turn", "BadFormat", **ok),
        Vector("turn_gb_unknown_field.pbm", _with_header(t_gb.data, lambda o: o.update(note="hi"), ids["GB"].signer),
               "a header field the spec does not allow, validly signed", "turn", "BadHeader", **ok),
        Vector("turn_gb_seq_changed.pbm", _with_header(t_gb.data, lambda o: o.update(seq=2)),
               "the header's seq changed after signing", "turn", "BadSignature", **ok),
    ]
    import msgpack

    unsorted = msgpack.packb(dict(reversed(list(env.header.to_obj().items()))), use_bin_type=True)
    v.append(Vector("turn_gb_noncanonical.pbm", envelope.assemble(unsorted, env.body, env.signature),
                    "the same header with its keys unsorted", "turn", "BadEncoding", **ok))

    # Another game, same keys: refused as another game.
    other, _ = files.create_gamestart(ids["host"], roster, "Other", bytes(16), {}, rng)
    from eiapbem.pbem.chain import Chain

    other_chain = Chain.from_gamestart(envelope.parse(other.data).header, crypto.file_hash(envelope.parse(other.data)))
    t_other, _ = files.write_turn(other_chain, ids["GB"], Step.one(SLOT_GB, "GB"), SLOT_GB, {}, rng=rng)
    v.append(Vector("turn_other_game.pbm", t_other.data, "a turn file of another game", "turn", "WrongGame", **ok))

    # RU's turn after GB's: loaded right after the gamestart it is out of order.
    t_ru_by_gb_chain = after_gb
    t_fr_for_ru, _ = files.write_turn(t_ru_by_gb_chain, ids["FR"], Step.one(SLOT_RU, "FR"), SLOT_RU, {}, rng=rng)
    v.append(Vector("turn_ru_by_fr.pbm", t_fr_for_ru.data, "France writes Russia's slot, which only Russia may write",
                    "turn", "AuthorNotAllowed", after=["gamestart.pbm", "turn_gb.pbm"], step=step_ru))
    v.append(Vector("turn_ru_by_fr_early.pbm", t_fr_for_ru.data, "a file two steps ahead: GB's file is missing",
                    "turn", "Missing", after=["gamestart.pbm"], step=step_gb))
    t_ru, _ = files.write_turn(after_gb, ids["RU"], Step.one(SLOT_RU, "RU"), SLOT_RU, {}, rng=rng)
    v.append(Vector("turn_ru_own.pbm", t_ru.data, "Russia's own file, opened by Russia", "turn", "OwnFile",
                    after=["gamestart.pbm", "turn_gb.pbm"], step=step_ru))

    # A second, different GB file for the same slot: a fork.
    t_gb2, _ = files.write_turn(gb_chain, ids["GB"], Step.one(SLOT_GB, "GB"), SLOT_GB, {"actions": []}, rng=rng)
    v.append(Vector("turn_gb_fork.pbm", t_gb2.data, "a second GB file for the same slot", "turn", "Fork",
                    after=["gamestart.pbm", "turn_gb.pbm"], step=step_gb))
    v.append(Vector("turn_gb_again.pbm", t_gb.data, "the GB file loaded a second time", "turn", "AlreadyLoaded",
                    after=["gamestart.pbm", "turn_gb.pbm"], step=step_gb))

    # A dice link from further down the chain (choosing other dice).
    skip = crypto.seal(kind="turn", game=GAME, gid=GID, slot=SLOT_GB, author="GB", signer=ids["GB"].signer,
                       to=files.game_recipients(roster), body={}, seq=1, epoch=0, prev=host.head,
                       reveal=ids["GB"].link(3), link=3, reloads=0, rng=rng)
    v.append(Vector("turn_gb_skipped_link.pbm", skip.data, "reveals dice link 3 instead of 1", "turn", "BadDice", **ok))

    # A recorded roll changed by its author, validly signed.
    d2 = Dice(crypto.dice_seed(ids["GB"].link(1), host.head, "turn"))
    val = d2.d6("naval/interception/north-sea")
    cheat_body = {"actions": [], "dice": {"naval/interception/north-sea": [6, val % 6 + 1]}}
    cheat, _ = files.write_turn(gb_chain, ids["GB"], Step.one(SLOT_GB, "GB"), SLOT_GB, cheat_body, rng=rng)
    v.append(Vector("turn_gb_wrong_roll.pbm", cheat.data, "a recorded roll its seed does not give", "turn", "BadDice",
                    check_rolls=True, **ok))

    # Validly signed, but not sealed for Russia / with a broken ciphertext.
    not_ru = crypto.seal(kind="turn", game=GAME, gid=GID, slot=SLOT_GB, author="GB", signer=ids["GB"].signer,
                         to=[t for t in files.game_recipients(roster) if t.role != "RU"], body={}, seq=1, epoch=0,
                         prev=host.head, reveal=ids["GB"].link(1), link=1, reloads=0, rng=rng)
    v.append(Vector("turn_gb_not_for_ru.pbm", not_ru.data, "sealed to everyone but Russia", "turn", "NotForYou", **ok))
    broken_body = bytes(len(env.body))
    bprefix = envelope.prefix_of(env.header_bytes, broken_body)
    broken = bprefix + ids["GB"].signer.sign(crypto.signed_message("turn", bprefix))
    v.append(Vector("turn_gb_bad_ciphertext.pbm", broken, "signed, but the ciphertext is zeros", "turn", "BadEncryption", **ok))

    # Identity file under a password (small scrypt parameters for a fast test kit).
    key = keys.seal_identity(ids["RU"], PASSWORD, GAME, logn=10, r=1, p=1, rng=rng)
    v.append(Vector("Vectors_RU.key", key, f"Russia's keys under the password {PASSWORD!r}", "identity", "ok"))
    v.append(Vector("Vectors_RU_flip.key", _flip(key, len(key) // 2), "a byte in the middle flipped", "identity", "BadSignature"))

    # A host backup for Russia: a new epoch, after which GB's old file is obsolete.
    b = files.write_backups(host, ids["host"], hashlib.sha256(b"state").digest(), {"RU": {"state": "checkpoint"}}, rng)["RU"]
    v.append(Vector("Vectors_backup_forplayer_Russia.sav", b.data, "the host's backup for Russia", "backup", "ok",
                    after=["gamestart.pbm"], dat=b.dat))
    v.append(Vector("turn_gb_obsolete.pbm", t_gb.data, "GB's file from before the backup", "turn", "Obsolete",
                    after=["gamestart.pbm", "Vectors_backup_forplayer_Russia.sav"], step=step_gb))
    return v


def main() -> int:
    vectors = build()
    for vec in vectors:
        (HERE / vec.name).write_bytes(vec.data)
        if vec.dat is not None:
            (HERE / (vec.name + ".dat")).write_bytes(vec.dat)
    index = {"format": "eiapbem-file/v1 test vectors", "reader": "RU", "password": PASSWORD,
             "vectors": [vec.meta() for vec in vectors]}
    (HERE / "vectors.json").write_text(json.dumps(index, indent=1) + "\n")
    print(f"wrote {len(vectors)} vectors to {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
