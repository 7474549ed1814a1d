"""What anyone can see of a sealed file without its keys: the clear header, checked."""

from __future__ import annotations

from pathlib import Path

from . import crypto, envelope
from .chain import Chain
from .errors import WrongKind
from .folders import read_limited


def describe(path: Path, gamestart: Path | None = None) -> list[tuple[str, str]]:
    """The clear header of ``path`` as (field, text) lines; with a gamestart, its signature checked too."""
    limit = envelope.MAX_SAV if path.name.endswith(".sav") else envelope.MAX_FILE
    data = read_limited(path, limit)
    env = envelope.parse(data, path.name, max_size=limit)
    h = env.header
    lines = [
        ("file", f"{path.name} ({len(data)} bytes)"),
        ("hash", crypto.fingerprint(crypto.file_hash(env))),
        ("kind", h.kind),
        ("game", f"{h.game} ({h.gid.hex()[:16]})"),
        ("slot", h.slot),
        ("author", h.author),
        ("seq", str(h.seq)),
        ("epoch", str(h.epoch)),
        ("follows", h.prev.hex()[:16] if h.prev else "-"),
        ("sealed for", " ".join(s.role for s in h.to)),
    ]
    if h.reloads is not None:
        lines.append(("reloads", str(h.reloads)))
    if h.link is not None:
        lines.append(("dice link", str(h.link)))
    if h.power is not None:
        lines.append(("backup for", h.power))
    if h.bidder is not None:
        lines.append(("bidder", f"{h.bidder[0]} <{h.bidder[1]}>"))
    if h.arbfp is not None:
        lines.append(("arbitrator key", h.arbfp[:8].hex()))
    if gamestart is not None:
        gdata = read_limited(gamestart)
        genv = envelope.parse(gdata, gamestart.name)
        if genv.header.kind != "gamestart":
            raise WrongKind(f"{gamestart.name} is a {genv.header.kind} file, not a gamestart file")
        assert genv.header.roster is not None
        crypto.verify_with_roster(genv, genv.header.roster, gamestart.name)
        chain = Chain.from_gamestart(genv.header, crypto.file_hash(genv))
        if h.kind in ("identity", "setup", "save", "bid", "selection"):
            lines.append(("signature", "not checked: this kind is checked by its own player's key"))
        else:
            chain.check_game(h, path.name)
            crypto.verify_with_roster(env, dict(chain.roster), path.name)
            lines.append(("signature", f"good ({h.author}'s key in gamestart {crypto.fingerprint(chain.head)})"))
    else:
        lines.append(("signature", "not checked (give --gamestart to check it)"))
    return lines
