"""What anyone can see of a sealed file without its keys: the clear header, checked."""

from __future__ import annotations

from pathlib import Path

from . import envelope, headers
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
        ("hash", envelope.fingerprint(envelope.file_hash(env))),
        ("kind", h.kind),
        ("game", f"{h.game} ({h.gid.hex()[:16]})"),
        ("slot", h.slot),
        ("author", h.author),
        ("seq", str(h.seq)),
        ("epoch", str(h.epoch)),
        ("follows", h.prev.hex()[:16] if h.prev else "-"),
        ("sealed for", " ".join(s.role for s in h.to)),
    ]
    if isinstance(h, (headers.TurnHeader, headers.BattleHeader)):
        lines.append(("reloads", str(h.reloads)))
    if isinstance(h, (headers.TurnHeader, headers.AdminHeader)):
        lines.append(("dice link", str(h.link)))
    if isinstance(h, headers.BackupHeader):
        lines.append(("backup for", h.power))
    if isinstance(h, headers.UpgradeHeader):
        lines.append(("versions", " ".join(f"{k} {v}" for k, v in h.versions.items())))
        lines.append(("release", h.release))
    if isinstance(h, headers.BidHeader):
        lines.append(("bidder", f"{h.bidder.name} <{h.bidder.email}>"))
    if isinstance(h, (headers.BidHeader, headers.SelectionHeader)):
        lines.append(("arbitrator key", h.arbfp[:8].hex()))
    if gamestart is not None:
        from . import crypto  # the signature's check alone needs the keys' code
        from .chain import Chain

        gdata = read_limited(gamestart)
        genv = envelope.parse(gdata, gamestart.name)
        gh = genv.header
        if not isinstance(gh, headers.GamestartHeader):
            raise WrongKind(f"{gamestart.name} is a {gh.kind} file, not a gamestart file")
        crypto.verify_with_roster(genv, dict(gh.roster), gamestart.name)
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
