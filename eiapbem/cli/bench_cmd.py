"""``eiapbem bench``: print timings (benchmarks print figures; they are not timed tests)."""

from __future__ import annotations

import click

from eiapbem.pbem import bench, crypto, envelope


def register(cli: click.Group) -> None:
    @cli.group("bench")
    def bench_group() -> None:
        """Benchmarks of this computer: how long files take to seal and open, and a game's rules and turns."""

    @bench_group.command("files")
    @click.option("--state-kib", type=click.IntRange(1, 16 * 1024), default=256, show_default=True,
                  help="Size of the synthetic game state in KiB.")
    @click.option("--logn", type=click.IntRange(*envelope.SCRYPT_LOGN), default=crypto.STRONG_LOGN, show_default=True,
                  help="scrypt work factor (N = 2^logn) for the password KDF.")
    @click.option("--repeat", type=click.IntRange(1, 50), default=3, show_default=True, help="Runs per figure (best is shown).")
    def files_(state_kib: int, logn: int, repeat: int) -> None:
        """Seal, open and verify times per file kind, with file sizes and the password KDF time."""
        rows, kdf_ms = bench.run(state_kib=state_kib, logn=logn, repeat=repeat)
        width = max(len(r.what) for r in rows)
        click.echo(f"{'file'.ljust(width)}  {'bytes':>10}  {'seal ms':>9}  {'open ms':>9}  {'verify ms':>9}")
        for r in rows:
            click.echo(f"{r.what.ljust(width)}  {r.size:>10}  {r.seal_ms:>9.2f}  {r.open_ms:>9.2f}  {r.verify_ms:>9.2f}")
        click.echo(f"password KDF (scrypt logn={logn}, r={crypto.STRONG_R}, p={crypto.STRONG_P}): {kdf_ms:.1f} ms")
        click.echo("open = parse + chain checks + signature + decrypt + decode; the identity row's seal and open include one KDF each")
        from eiapbem.client import bench_battle

        click.echo("")
        battle = bench_battle.run()
        width = max(len(r.what) for r in battle)
        click.echo(f"{'a battle by battle files between two folders'.ljust(width)}  {'bytes':>10}  {'write ms':>9}  {'load ms':>9}")
        for b in battle:
            wrote = f"{b.write_ms:.1f}" if b.write_ms is not None else "-"
            click.echo(f"{b.what.ljust(width)}  {b.size:>10}  {wrote.rjust(9)}  {f'{b.load_ms:.1f}'.rjust(9)}")
        click.echo("load = 'eiapbem load' in the receiving folder (its session opening included); key files use weak scrypt")

    from .campaign_cmd import register_bench

    register_bench(bench_group)

    from .ai_cmd import register_bench as register_ai_bench

    register_ai_bench(bench_group)

    @bench_group.command("game")
    @click.option("--repeat", type=click.IntRange(1, 50), default=3, show_default=True, help="Runs per figure (best is shown).")
    def game_(repeat: int) -> None:
        """Rules and game-loop figures on a classic-1805 game with the default setups (in a temporary folder)."""
        from eiapbem.client import bench as game_bench

        figures = game_bench.run(repeat)
        width = max(len(f.what) for f in figures)
        for f in figures:
            click.echo(f"{f.what.ljust(width)}  {f.value:>10.1f} {f.unit}")
        click.echo("key files use weak scrypt here; 'eiapbem bench files' shows the password hash and file sealing")

    @bench_group.command("view")
    @click.option("--repeat", type=click.IntRange(1, 50), default=5, show_default=True, help="Runs per figure (best is shown).")
    def view_(repeat: int) -> None:
        """How fast 'eiapbem view' starts (against 'eiapbem status') and answers a click that moves a corps."""
        from eiapbem.view import bench as view_bench

        figures = view_bench.run(repeat)
        width = max(len(f.what) for f in figures)
        for f in figures:
            click.echo(f"{f.what.ljust(width)}  {f.seconds * 1000:>8.1f} ms")
        status, view, move = figures[0].seconds, figures[1].seconds, figures[2].seconds
        click.echo(f"the view starts in {view / status:.2f}x the time of status (aim: at most 2x); the click answers "
                   f"in {move * 1000:.0f} ms (aim: at most 200 ms on 2 cores); best of {repeat} runs each")

    @bench_group.command("cli")
    @click.option("--repeat", type=click.IntRange(1, 50), default=10, show_default=True, help="Runs per figure (best is shown).")
    @click.option("--command", "commands", multiple=True, metavar="X",
                  help="Time 'eiapbem X --help' for these commands only (default: every top-level command).")
    def cli_(repeat: int, commands: tuple[str, ...]) -> None:
        """How fast the command line answers: --help, X --help and status, against a bare interpreter start."""
        from eiapbem.cli import clibench

        figures = clibench.run(repeat, commands or None)
        bare = figures[0].seconds
        width = max(len(f.what) for f in figures)
        cpu0 = figures[0].cpu or 1e-9
        mid = figures[0].median or 1e-9
        for f in figures:
            click.echo(f"{f.what.ljust(width)}  {f.seconds * 1000:>8.1f} ms  ({f.seconds / bare:.1f}x the bare start)"
                       + (f"  median {f.median * 1000:>6.0f} ms ({f.median / mid:.1f}x)" if f.median else "")
                       + (f"  CPU {f.cpu * 1000:>6.0f} ms ({f.cpu / cpu0:.1f}x)" if f.cpu else ""))
        click.echo(f"best of {repeat} runs each, and their median against the bare start's median (CPU: user + system "
                   "of the process, the least of the runs); the machine's load changes every wall figure alike, the "
                   "CPU figures much less")
        if not clibench.bytecode_cached():
            click.echo("eiapbem's modules have no compiled bytecode here (PYTHONDONTWRITEBYTECODE or a read-only "
                       "folder): every fresh process above compiled them from source, which an installed package does "
                       "not ('python -m compileall' on the package removes that cost)")
