"""The README's walk-through of a game by email in seven folders, typed as written: the host's `new`, each
player's `cp` and `join` (passwords answered at the prompts), then the loop the README gives (`status`'s `Turn:`,
the setup's two commands, `end-phase`, the file it names mailed to every other folder's commin/, `load`) through
the setup and a diplomacy month with a war declared; every folder ends in one state."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from clikit import cli
from paths import ROOT

pytestmark = pytest.mark.slow


def _section() -> str:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## A game by email in seven folders")
    return readme[start:readme.index("\n## ", start + 10)]


def _blocks(text: str) -> list[list[str]]:
    return [[" ".join(line.split()) for line in b.replace("\\\n", " ").splitlines() if line.strip()]
            for b in re.findall(r"```sh\n(.*?)```", text, re.S)]


def test_the_readme_seven_folder_walk_through_plays_the_setup_and_a_month_of_diplomacy(tmp_path):
    text = _section()
    host_block, join_block = _blocks(text)
    home = tmp_path / "home"
    folders: dict[str, Path] = {}
    pw = {}

    def in_dir(line: str) -> Path:
        m = re.fullmatch(r"mkdir -p (\S+) && cd \1", line)
        assert m, line
        d = Path(m.group(1).replace("~", str(home)))
        d.mkdir(parents=True)
        return d

    # 1. the host
    fr = folders["FR"] = in_dir(host_block[0])
    words = shlex.split(host_block[1])
    assert words[:2] == ["eiapbem", "new"] and len([w for w in words if w == "--player"]) == 7
    pw["FR"] = "pw-FR"
    r = cli(fr, *words[1:], input="pw-FR\npw-FR\n")
    assert r.exit_code == 0, (r.output, r.exception)
    one_time = dict(re.findall(r"^  ([A-Z]{2}): send .*one-time password separately: (\S+)$", r.output, re.M))
    emails = dict(re.findall(r"--player ([A-Z]{2}):[^:]+:([^:]+):client", host_block[1]))
    assert sorted(one_time) == sorted(emails) == ["AU", "GB", "PR", "RU", "SP", "TU"]
    assert "commout/Ulm_gamestart_for_Austria.eml" in r.output and "Ulm_gamestart_for_Austria.eml" in text

    # 2. each player, Austria's lines with the power, folder and address of each
    downloads = fr / "commout"  # the mail's attachments, as saved
    for p, email in emails.items():
        lines = [ln.replace("/au", f"/{p.lower()}").replace("_AU.", f"_{p}.").replace("--power AU", f"--power {p}")
                 .replace("ann@example.org", email) for ln in join_block]
        d = folders[p] = in_dir(lines[0])
        cp = shlex.split(lines[1])
        assert cp[0] == "cp" and cp[-1] == "."
        for src in cp[1:-1]:
            shutil.copy(downloads / Path(src).name, d)
        words = shlex.split(lines[2])
        pw[p] = f"pw-{p}"
        r = cli(d, *words[1:], input=f"{one_time[p]}\n{pw[p]}\n{pw[p]}\n")
        assert r.exit_code == 0, (p, r.output, r.exception)

    # 3. the loop, as the README gives it
    flat = " ".join(text.split())
    for said in ("`eiapbem status` (`Turn:` says who plays now", "Russia first: `eiapbem setup load default`",
                 "`eiapbem diplomacy declare-war --target AU`", "types `eiapbem end-phase`, which names the turn file",
                 "mail it to every other player, who saves it in `commin/` and runs `eiapbem load`"):
        assert said in flat, said

    def run(p: str, *args: str):
        r = cli(folders[p], *args, input=f"{pw[p]}\n")
        assert r.exit_code == 0, (p, args, r.output, r.exception)
        return r.output

    def mail(p: str, out: str) -> None:
        name = re.search(r"turn file (commout/\S+\.pbm)", out).group(1)
        for q in folders:
            if q != p:
                shutil.copy(folders[p] / name, folders[q] / "commin")
                assert "loaded " in run(q, "load")

    def turn() -> str:
        return re.search(r"^Turn: .*\(\S+/([A-Z]{2}|all)\)$", run("FR", "status"), re.M).group(1)

    order = []
    while turn() != "all":
        p = turn()
        order.append(p)
        run(p, "setup", "load", "default")
        mail(p, run(p, "end-phase"))
    assert order[0] == "RU" and sorted(order) == sorted(folders)
    run("FR", "diplomacy", "declare-war", "--target", "AU")
    for _ in range(2):  # the sealed commitment, then the reveal
        outs = {p: run(p, "end-phase") for p in folders}
        for p, out in outs.items():
            mail(p, out)
    states = {re.search(r"\(state ([0-9a-f]+):", run(p, "status")).group(1) for p in folders}
    assert len(states) == 1, states
    assert "France declares war on Austria" in run("AU", "status")
