"""``eiapbem gap``: the Game Assistance Program (4.2.9-4.2.12, ``000:266-300``).

The arbitrator publishes a key (``arbitrator-key``); each of the seven players
writes a bid file sealed to it (``bid``); the arbitrator compares the seven
bids (``resolve``), sends the results text to everyone and keeps the selection
file for creating the game (``show-sel``; ``eiapbem new --import-bids``); any
player can re-check the draw from the results text (``verify``).
"""

from __future__ import annotations

from pathlib import Path

import click

from eiapbem.core.errors import EiaError
from eiapbem.gap import files as gapfiles
from eiapbem.gap.arbitrate import AWARD_ORDER, MAX_BID, POWER_NAMES, POWERS, BadBid, Bid, arbitrate
from eiapbem.gap.results import render_results, verify_results
from eiapbem.pbem import atomic, crypto, envelope
from eiapbem.pbem.folders import read_limited

from .common import BadOption, read_password


def _parse_bids(items: tuple[str, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        power, sep, value = item.partition("=")
        power = power.strip().upper()
        if not sep or power not in POWERS:
            raise BadOption(f"--bid {item!r} is not a bid such as GB=10; the powers are {' '.join(POWERS)}")
        if power in out:
            raise BadOption(f"--bid gives {power} twice; give each power's bid once")
        try:
            out[power] = int(value.strip())
        except ValueError as err:
            raise BadOption(f"--bid {item!r}: the bid must be a whole number of victory points from 0 to {MAX_BID}") from err
    return out


def _parse_wars(items: tuple[str, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for item in items:
        agg, sep, target = item.partition(":")
        agg, target = agg.strip().upper(), target.strip().upper()
        if not sep or agg not in POWERS or target not in POWERS:
            raise BadOption(f"--war {item!r} is not a war such as FR:AU (aggressor:target); the powers are {' '.join(POWERS)}")
        if agg == target:
            raise BadOption(f"--war {item!r}: a power cannot declare war on itself")
        out.setdefault(agg, []).append(target)
    return out


def _pub_path(out: Path) -> Path:
    return out.with_suffix(".pub") if out.suffix == ".key" else out.with_name(out.name + ".pub")


def register(cli: click.Group) -> None:
    @cli.group("gap")
    def gap_group() -> None:
        """The Game Assistance Program: bids, arbitration and the selection of powers (4.2.9-4.2.12)."""

    pw_option = click.option(
        "--password-file",
        type=click.Path(path_type=Path, dir_okay=False),
        help="Read the password from this file (one line) instead of asking; for scripts.",
    )

    @gap_group.command("arbitrator-key")
    @click.option("--out", "out", required=True, type=click.Path(path_type=Path, dir_okay=False),
                  help="The arbitrator's private key file to write, e.g. arbitrator.key (the public key goes beside it as .pub).")
    @pw_option
    @click.option("--logn", type=click.IntRange(*envelope.SCRYPT_LOGN), default=crypto.STRONG_LOGN, show_default=True,
                  help="scrypt work factor (N = 2^logn) protecting the key; keep the default.")
    def arbitrator_key(out: Path, password_file: Path | None, logn: int) -> None:
        """Make the arbitrator's key pair: a private key file under a password and a public key to publish."""
        pub = _pub_path(out)
        for p in (out, pub):
            if p.exists():
                raise BadOption(f"{p} already exists; an arbitrator key is never overwritten, choose another --out")
        password = read_password(password_file, "Password for the arbitrator key", confirm=True)
        data, key = gapfiles.new_arbitrator_key(password, logn=logn)
        atomic.write_atomic(out, data)
        atomic.write_atomic(pub, key.to_text().encode("utf-8"))
        click.echo(f"wrote {out} (the private key: keep it and its password; it opens every bid sealed to it)")
        click.echo(f"wrote {pub} (the public key: send it to the seven players for their bids)")
        click.echo(f"arbitrator key fingerprint: {key.short}  (tell the players by another channel so they can compare)")
        click.echo("")
        click.echo(key.to_text().rstrip("\n"))

    @gap_group.command("bid")
    @click.option("--game", required=True, help="The game's name, as the arbitrator gave it.")
    @click.option("--name", "pname", required=True, help="Your name (letters, digits, spaces, '.', \"'\", '-', '_').")
    @click.option("--email", required=True, help="Your email address.")
    @click.option("--arbitrator-key", "arb", required=True, type=click.Path(path_type=Path, dir_okay=False),
                  help="The arbitrator's public key file (.pub).")
    @click.option("--bid", "bids", multiple=True, metavar="POWER=VP",
                  help=f"Your victory point bid for a power, 0 to {MAX_BID}, e.g. --bid GB=10; powers not named get 0.")
    @click.option("--war", "wars", multiple=True, metavar="AGGRESSOR:TARGET",
                  help="A pre-existing war you would declare if you win AGGRESSOR, e.g. --war FR:AU; repeat as needed.")
    @pw_option
    @click.option("--out-dir", type=click.Path(path_type=Path, file_okay=False), default=".", show_default=True,
                  help="Folder to write YourName_GameName.bid in.")
    def bid_cmd(game: str, pname: str, email: str, arb: Path, bids: tuple[str, ...], wars: tuple[str, ...],
                password_file: Path | None, out_dir: Path) -> None:
        """Write your bid file YourName_GameName.bid, sealed so that only the arbitrator can read it (4.2.10)."""
        values = _parse_bids(bids)
        war_map = _parse_wars(wars)
        Bid.make(game, pname, email, values, war_map, None)  # refuse a bad bid before asking for the password
        key = gapfiles.ArbitratorKey.from_text(read_limited(arb, gapfiles.MAX_PUBLIC_KEY), arb.name)
        target = out_dir / gapfiles.bid_file_name(pname, game)
        earlier: list[Path] = []
        for p in gapfiles.bid_files_of(out_dir, game):
            try:
                h = gapfiles.peek_bid(read_limited(p), p.name)
            except EiaError:
                if p == target:
                    raise BadOption(f"{p} exists and is not a readable bid file; move it away first") from None
                continue
            if h.game == game and h.bidder.email.lower() == email.lower():
                earlier.append(p)
            elif p == target:
                raise BadOption(
                    f"{p} already holds the bid of {h.bidder.email} for game {h.game}; use another --name or --out-dir"
                )
        password = read_password(password_file, "Your game password (it will protect your game files)", confirm=True)
        bid = Bid.make(game, pname, email, values, war_map, password)
        sealed = gapfiles.write_bid(bid, key)
        out_dir.mkdir(parents=True, exist_ok=True)
        atomic.write_atomic(target, sealed.data)
        for p in earlier:
            if p != target:
                p.unlink()
        click.echo(f"wrote {target} for arbitrator key {key.short}")
        for p in earlier:
            click.echo(f"this replaces your earlier bid {p.name} for game {game} (only the latest bid counts)")
        click.echo(f"bid file fingerprint: {crypto.fingerprint(sealed.hash)}  (check it against the results text)")
        click.echo("bids: " + " ".join(f"{p}={v}" for p, v in bid.bids))
        click.echo("wars: " + (" ".join(f"{a}:{t}" for a, ts in bid.wars for t in ts) or "none"))

    @gap_group.command("resolve")
    @click.argument("bid_files", nargs=-1, type=click.Path(path_type=Path, dir_okay=False))
    @click.option("--key", "key_file", required=True, type=click.Path(path_type=Path, dir_okay=False),
                  help="The arbitrator's private key file.")
    @pw_option
    @click.option("--gb-fr-war", is_flag=True, help="Great Britain and France start at war (4.2.10, 4.2.12).")
    @click.option("--game", default=None, help="Refuse any bid that is not for this game.")
    @click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=".", show_default=True,
                  help="Folder to write GameName.txt and GameName.sel in.")
    def resolve(bid_files: tuple[Path, ...], key_file: Path, password_file: Path | None, gb_fr_war: bool,
                game: str | None, out_dir: Path) -> None:
        """Compare the seven bid files of a game; write GameName.txt for the players and GameName.sel (4.2.10-4.2.11)."""
        if len(bid_files) != 7:
            raise BadBid(f"arbitration needs exactly 7 bid files, one per player; {len(bid_files)} were given")
        datas = [(p.name, read_limited(p)) for p in bid_files]
        password = read_password(password_file, "Password of the arbitrator key", confirm=False)
        me = gapfiles.load_arbitrator_key(key_file, password)
        opened = gapfiles.open_bids(datas, me, game)
        result = arbitrate([o.bid for o in opened], gb_fr_war=gb_fr_war)
        hashes = {o.bid.email: o.hash for o in opened}
        text = gapfiles.sign_results(render_results(result, {e: crypto.fingerprint(h) for e, h in hashes.items()}), me)
        sel = gapfiles.write_selection(result, hashes, me)
        txt_path, sel_path = out_dir / f"{result.game}.txt", out_dir / f"{result.game}.sel"
        replaced = [p.name for p in (txt_path, sel_path) if p.exists()]
        out_dir.mkdir(parents=True, exist_ok=True)
        atomic.write_atomic(sel_path, sel.data)
        atomic.write_atomic(txt_path, text.encode("utf-8"))
        click.echo(f"game {result.game}: {len(opened)} bids, Great Britain and France at war: {'yes' if gb_fr_war else 'no'}")
        click.echo(f"tie-break seed: {result.seed.hex()}")
        for a in result.awards:
            tie = f"  (tie of {len(a.tied)} broken by the draw)" if a.tied else ""
            click.echo(f"  {POWER_NAMES[a.power]:<13}  {a.name} <{a.email}>  {a.cost} VP{tie}")
        if replaced:
            click.echo(f"replaced the earlier {' and '.join(replaced)}")
        click.echo(f"wrote {txt_path}: send it to every player and the host (4.2.10); anyone can re-check it "
                   f"with 'eiapbem gap verify {txt_path.name}'")
        click.echo(f"wrote {sel_path}: it is for creating the game ('eiapbem new {result.game} --import-bids {sel_path.name}').")
        click.echo(f"WARNING: {sel_path.name} holds all seven players' game passwords (4.2.11). It opens only with this "
                   "arbitrator key and its password; keep both private and keep the .sel to give a replacement "
                   "player the password (4.2.12).")
        click.echo("WARNING: whoever arbitrates has seen every password and every bid. A non-playing arbitrator is "
                   "safer: if the host or a player arbitrates, it could open the other players' game files "
                   "(4.2.12). See docs/SECURITY.md.")

    @gap_group.command("show-sel")
    @click.argument("sel_file", type=click.Path(path_type=Path, dir_okay=False))
    @click.option("--key", "key_file", required=True, type=click.Path(path_type=Path, dir_okay=False),
                  help="The arbitrator's private key file (the .sel is sealed to it).")
    @pw_option
    @click.option("--game", default=None, help="Refuse the file unless it is the selection of this game.")
    def show_sel(sel_file: Path, key_file: Path, password_file: Path | None, game: str | None) -> None:
        """Print a selection file: each power's player, address, bid, wars and game password (4.2.11)."""
        password = read_password(password_file, "Password of the arbitrator key", confirm=False)
        me = gapfiles.load_arbitrator_key(key_file, password)
        sel = gapfiles.read_selection(sel_file, me, game=game)
        click.echo(f"selection of game {sel.game} (checked: signed by this arbitrator, draw re-run)")
        click.echo(f"tie-break seed: {sel.seed.hex()}")
        click.echo(f"Great Britain and France start at war: {'yes' if sel.gb_fr_war else 'no'}")
        for power in AWARD_ORDER:
            p = sel.power(power)
            wars = ", ".join(POWER_NAMES[t] for t in p.wars) or "none"
            click.echo(f"  {POWER_NAMES[power]:<13}  {p.name} <{p.email}>  bid {p.vp_bid} VP  wars: {wars}  "
                       f"password: {p.password}")
        click.echo("pre-existing wars: " + (", ".join(f"{a}->{t}" for a, t in sel.wars) or "none"))
        click.echo("These passwords open the players' game files: do not show this to anyone else (4.2.11, 4.2.12).")

    @gap_group.command("verify")
    @click.argument("results", type=click.Path(path_type=Path, dir_okay=False))
    @click.option("--arbitrator-key", "arb", type=click.Path(path_type=Path, dir_okay=False),
                  help="The arbitrator's public key file (.pub), to check the arbitrator's signature of the text.")
    def verify(results: Path, arb: Path | None) -> None:
        """Re-run the draw of a results text GameName.txt from the bids it publishes; refuse it if it does not follow."""
        data = read_limited(results, 1024 * 1024)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise BadBid(f"{results.name} is not a GAP results text (it is not UTF-8 text)") from err
        if arb is not None:
            key = gapfiles.ArbitratorKey.from_text(read_limited(arb, gapfiles.MAX_PUBLIC_KEY), arb.name)
            body = gapfiles.check_results_signature(text, key, results.name)
            signed = f"signed by the arbitrator key {key.short}: good"
        else:
            body, short, _ = gapfiles.split_results(text)
            signed = (f"signed by the arbitrator key {short}: not checked (give --arbitrator-key to check it)"
                      if short else "not signed by an arbitrator")
        checked = verify_results(body, results.name)
        r = checked.result
        ties = sum(1 for a in r.awards if a.tied)
        click.echo(f"{results.name} checks out: game {r.game}, seed {r.seed.hex()}")
        click.echo(f"the seed is the hash of the published bids, {ties} tie(s) re-drawn, every award follows from the bids")
        click.echo(f"the text is {signed}")
        for a in r.awards:
            click.echo(f"  {POWER_NAMES[a.power]:<13}  {a.name} <{a.email}>  {a.cost} VP  bid file {checked.fingerprints[a.email]}")
