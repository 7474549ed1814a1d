"""``eiapbem gap`` through the real command (4.2.9-4.2.12, 000:266-300).

Every refusal: one ``eiapbem: error:`` sentence, a non-zero exit, and not one file written or changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from eiapbem.gap import files as gf
from eiapbem.gap.arbitrate import POWERS, Bid

pytestmark = pytest.mark.slow

GAME = "Austerlitz"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def refused(run_cli, folder: Path, *args, match: str):
    before = snapshot(folder)
    code, out, err = run_cli(*args)
    assert code != 0, out
    lines = err.strip().splitlines()
    assert lines and lines[0].startswith("eiapbem: error: "), err
    assert "Traceback" not in err and len(lines) <= 2
    assert match in lines[0], err
    assert snapshot(folder) == before, "a refused command must write nothing"
    return lines[0]


def arbitrator(folder: Path, name="arb", password="arbitrator pw"):
    data, pub = gf.new_arbitrator_key(password, logn=10, r=1, p=1)
    (folder / f"{name}.key").write_bytes(data)
    (folder / f"{name}.pub").write_text(pub.to_text())
    (folder / f"{name}.pw").write_text(password + "\n")
    return pub


def bid_file(folder: Path, pub, i, values=(0,) * 7, game=GAME, email=None, name=None) -> Path:
    bid = Bid.make(game, name or f"Player{i}", email or f"p{i}@example.org", dict(zip(POWERS, values)), None, f"pw{i}")
    path = folder / gf.bid_file_name(bid.name, game)
    path.write_bytes(gf.write_bid(bid, pub).data)
    return path


def seven(folder: Path, pub) -> list[Path]:
    return [bid_file(folder, pub, i, (i,) * 7) for i in range(7)]


def resolve_args(paths, key="arb"):
    return ("gap", "resolve", *[p.name for p in paths], "--key", f"{key}.key", "--password-file", f"{key}.pw")


def test_the_whole_gap_through_the_command(run_cli, tmp_path):
    # 4.2.9 (000:268): the game starts from the GAP's bids and selection, imported through the commands.
    code, out, err = run_cli("gap", "arbitrator-key", "--out", "arb.key", "--password-file", "apw", "--logn", "10")
    assert code != 0 and "apw" in err  # no password file yet: refused, nothing written
    assert not (tmp_path / "arb.key").exists()
    (tmp_path / "apw").write_text("arbitrator pw\n")
    code, out, err = run_cli("gap", "arbitrator-key", "--out", "arb.key", "--password-file", "apw", "--logn", "10")
    assert code == 0, err
    pub = gf.ArbitratorKey.from_text((tmp_path / "arb.pub").read_bytes())
    assert f"arbitrator key fingerprint: {pub.short}" in out
    code, _, err = run_cli("gap", "arbitrator-key", "--out", "arb.key", "--password-file", "apw")
    assert code != 0 and "never overwritten" in err

    # 000:272: seven players bid; anne bids highest for several powers.
    rows = {
        "anne": ["GB=20", "FR=25", "RU=15", "AU=10"],
        "bert": ["FR=24", "GB=2"],
        "carl": ["RU=14"],
        "dora": ["AU=9"],
        "emil": ["PR=8"],
        "fay": ["SP=7"],
        "gus": ["TU=6"],
    }
    fps = {}
    for who, bids in rows.items():
        (tmp_path / f"{who}.pw").write_text(f"{who}-secret\n")
        args = ["gap", "bid", "--game", GAME, "--name", who.title(), "--email", f"{who}@example.org",
                "--arbitrator-key", "arb.pub", "--password-file", f"{who}.pw"]
        for b in bids:
            args += ["--bid", b]
        if who == "anne":
            args += ["--war", "GB:SP", "--war", "FR:AU"]
        code, out, err = run_cli(*args)
        assert code == 0, err
        assert f"wrote {who.title()}_{GAME}.bid for arbitrator key {pub.short}" in out
        fps[who] = out.split("bid file fingerprint: ")[1][:16]
    # Gus bids again: the later bid replaces his file and says so (only the latest bid counts).
    code, out, err = run_cli("gap", "bid", "--game", GAME, "--name", "Gus", "--email", "gus@example.org",
                             "--arbitrator-key", "arb.pub", "--password-file", "gus.pw", "--bid", "TU=6")
    assert code == 0 and f"this replaces your earlier bid Gus_{GAME}.bid" in out, err
    fps["gus"] = out.split("bid file fingerprint: ")[1][:16]
    code, out, err = run_cli("files", "inspect", f"Gus_{GAME}.bid")
    assert code == 0 and "Gus <gus@example.org>" in out and pub.short in out, err
    # Carl bids again under another spelling of his name: the later bid replaces the earlier file.
    code, out, err = run_cli("gap", "bid", "--game", GAME, "--name", "Carl M.", "--email", "CARL@example.org",
                             "--arbitrator-key", "arb.pub", "--password-file", "carl.pw", "--bid", "RU=14")
    assert code == 0, err
    assert f"this replaces your earlier bid Carl_{GAME}.bid" in out
    assert not (tmp_path / f"Carl_{GAME}.bid").exists() and (tmp_path / f"Carl_M_{GAME}.bid").exists()
    fps["carl"] = out.split("bid file fingerprint: ")[1][:16]

    bids = sorted(p.name for p in tmp_path.glob("*.bid"))
    assert len(bids) == 7
    code, out, err = run_cli("gap", "resolve", *bids, "--key", "arb.key", "--password-file", "apw", "--gb-fr-war")
    assert code == 0, err
    assert "tie-break seed: " in out
    assert "holds all seven players' game passwords (4.2.11)" in out and "non-playing arbitrator is safer" in out
    txt = (tmp_path / f"{GAME}.txt").read_text()
    # 000:274: winner, cost, name, address, wars; Britain is compared first, so Anne gets it for 20.
    assert "Great Britain  won by Anne <anne@example.org> for 20 victory points" in txt
    assert "France         won by Bert <bert@example.org> for 24 victory points" in txt
    assert "pre-existing wars declared: Spain" in txt
    assert all(f"  file {fp}" in txt for fp in fps.values())
    assert "secret" not in txt

    code, out, err = run_cli("gap", "verify", f"{GAME}.txt", "--arbitrator-key", "arb.pub")
    assert code == 0, err
    assert f"{GAME}.txt checks out" in out and f"signed by the arbitrator key {pub.short}: good" in out

    code, out, err = run_cli("gap", "show-sel", f"{GAME}.sel", "--key", "arb.key", "--password-file", "apw", "--game", GAME)
    assert code == 0, err
    assert "Great Britain  Anne <anne@example.org>  bid 20 VP  wars: Spain  password: anne-secret" in out
    assert "pre-existing wars: FR->GB, GB->SP" in out  # the option adds France-Britain (4.2.10)

    # verify with a text someone changed: refused.
    (tmp_path / "changed.txt").write_text(txt.replace("won by Anne", "won by Bert", 1))
    refused(run_cli, tmp_path, "gap", "verify", "changed.txt", match="does not follow from its own published bids")
    (tmp_path / "flipped.txt").write_text(txt.replace("start at war: yes", "start at war: no", 1))
    refused(run_cli, tmp_path, "gap", "verify", "flipped.txt", "--arbitrator-key", "arb.pub",
            match="changed after the arbitrator signed it")


def test_refused_bids_on_writing(run_cli, tmp_path):
    arbitrator(tmp_path)
    (tmp_path / "p.pw").write_text("pw\n")
    base = ("gap", "bid", "--game", GAME, "--name", "Anne", "--email", "anne@example.org", "--arbitrator-key", "arb.pub",
            "--password-file", "p.pw")
    refused(run_cli, tmp_path, *base, "--bid", "FR=31", match="bids are whole numbers from 0 to 30")
    refused(run_cli, tmp_path, *base, "--bid", "FR=-1", match="bids are whole numbers from 0 to 30")
    refused(run_cli, tmp_path, *base, "--bid", "XX=1", match="not a bid such as GB=10")
    refused(run_cli, tmp_path, *base, "--war", "FR:FR", match="cannot declare war on itself")
    refused(run_cli, tmp_path, *base[:-4], "--arbitrator-key", "arb.key", "--password-file", "p.pw",
            match="not the arbitrator's public key")
    # Someone else's bid file under the same file name is not overwritten.
    other = gf.ArbitratorKey.from_text((tmp_path / "arb.pub").read_bytes())
    bid_file(tmp_path, other, 9, email="someone@example.org", name="Anne")
    refused(run_cli, tmp_path, *base, match="already holds the bid of someone@example.org")


@pytest.mark.parametrize("case", ["another-game", "changed", "truncated", "six", "eight", "same-address",
                                  "wrong-key", "wrong-password"])
def test_refused_arbitrations(run_cli, tmp_path, case):
    pub = arbitrator(tmp_path)
    paths = seven(tmp_path, pub)
    key = "arb"
    match = {
        "another-game": "Player3_Jena.bid is a bid for game Jena, but the other bids are for Austerlitz",
        "changed": "Player2_Austerlitz.bid was changed after it was signed",
        "truncated": "Player2_Austerlitz.bid is truncated",
        "six": "exactly 7 bid files, one per player; 6 were given",
        "eight": "exactly 7 bid files, one per player; 8 were given",
        "same-address": "both come from the address P1@example.org",
        "wrong-key": "is sealed for the arbitrator key",
        "wrong-password": "the password does not open arb.key",
    }[case]
    if case == "another-game":
        paths[3].unlink()
        paths[3] = bid_file(tmp_path, pub, 3, game="Jena")
    elif case == "changed":
        data = bytearray(paths[2].read_bytes())
        data[len(data) - 80] ^= 4  # inside the encrypted bids
        paths[2].write_bytes(bytes(data))
    elif case == "truncated":
        paths[2].write_bytes(paths[2].read_bytes()[:-100])
    elif case == "six":
        paths = paths[:6]
    elif case == "eight":
        paths.append(bid_file(tmp_path, pub, 7))
    elif case == "same-address":
        paths[5].unlink()
        paths[5] = bid_file(tmp_path, pub, 5, email="P1@example.org", name="Again")
    elif case == "wrong-key":
        arbitrator(tmp_path, "other", "other pw")
        key = "other"
    elif case == "wrong-password":
        (tmp_path / "arb.pw").write_text("not the password\n")
    refused(run_cli, tmp_path, *resolve_args(paths, key), match=match)


def test_refused_selection_files(run_cli, tmp_path):
    pub = arbitrator(tmp_path)
    code, _, err = run_cli(*resolve_args(seven(tmp_path, pub)))
    assert code == 0, err
    show = ("gap", "show-sel", f"{GAME}.sel", "--key", "arb.key", "--password-file", "arb.pw")
    refused(run_cli, tmp_path, *show, "--game", "Jena", match=f"{GAME}.sel is the selection of game {GAME}, not of game Jena")
    sel = tmp_path / f"{GAME}.sel"
    good = sel.read_bytes()
    sel.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    refused(run_cli, tmp_path, *show, match=f"{GAME}.sel was changed after the arbitrator signed it")
    sel.write_bytes(good[: len(good) // 2])
    refused(run_cli, tmp_path, *show, match=f"{GAME}.sel is truncated")
    sel.write_bytes(good)
    arbitrator(tmp_path, "other", "other pw")
    refused(run_cli, tmp_path, "gap", "show-sel", f"{GAME}.sel", "--key", "other.key", "--password-file", "other.pw",
            match="is sealed for the arbitrator key")
    (tmp_path / "bad.pw").write_text("not it\n")
    refused(run_cli, tmp_path, "gap", "show-sel", f"{GAME}.sel", "--key", "arb.key", "--password-file", "bad.pw",
            match="the password does not open arb.key")
    code, out, _ = run_cli(*show)
    assert code == 0 and "password: pw6" in out  # the untouched file still opens
    # The results text without its signature line still re-runs, and says it is unsigned.
    txt = (tmp_path / f"{GAME}.txt").read_text()
    (tmp_path / "unsigned.txt").write_text(txt[: txt.index("\nSigned by the arbitrator key")])
    code, out, err = run_cli("gap", "verify", "unsigned.txt")
    assert code == 0 and "not signed by an arbitrator" in out, err
    refused(run_cli, tmp_path, "gap", "verify", "unsigned.txt", "--arbitrator-key", "arb.pub",
            match="carries no arbitrator signature line")
