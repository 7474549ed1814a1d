"""'eiapbem admin sync-check' on a player's last file: what the host does when the file has nothing beside it at its
point (4.2.8, 000:212-214), driven through the command as the host types it."""

import shutil

from clikit import cli, new_game

from eiapbem.client.session import Session


def _play_setup(home):
    """The power whose setup slot is in play places the shipped setup and ends it; its turn file."""
    power = Session.open(home, "Cli", "RU", "pw-RU").state.slot.power
    pw = ("--power", power, "--password", f"pw-{power}")
    assert cli(home, "setup", "load", "default", *pw).exit_code == 0
    r = cli(home, "end-phase", *pw)
    assert r.exit_code == 0, (r.output, r.exception)
    return max((home / "commout").glob("*.pbm"), key=lambda p: p.stat().st_mtime_ns)


def test_a_file_alone_at_its_point_says_what_the_host_does(tmp_path):
    home = new_game(tmp_path / "host")
    first = _play_setup(home)
    ahead = tmp_path / "ahead"
    shutil.copytree(home, ahead)
    nxt = _play_setup(ahead)  # the file after the host's last one, made in another folder
    later = _play_setup(ahead)  # and the one after it
    host = ("--password", "pw-host")
    home2 = tmp_path / "host2"
    shutil.copytree(home, home2)

    # The host's own earlier file: loaded here, checked then; the host has moved on. Nothing is to be done.
    _play_setup(home)
    r = cli(home, "admin", "sync-check", str(first), *host)
    assert r.exit_code == 0, (r.output, r.exception)
    assert r.output.startswith("In sync") and "backup" not in r.output, r.output
    assert "this folder loaded that file, and its state then equalled this folder's replay of it" in r.output

    # A file two steps ahead of the host: nothing to compare it with, and the sentence says what would be.
    r = cli(home2, "admin", "sync-check", str(later), *host)
    assert r.exit_code == 0 and "nothing to compare" not in r.output.splitlines()[0], r.output
    assert "could not be compared" in r.output.splitlines()[0] and "backup" not in r.output, r.output
    assert "give a file or save of another player at the same point, or this player's newer file" in r.output

    # The file that follows the host's last one (its own slot's): replayed on the host's state and compared.
    r = cli(home2, "admin", "sync-check", str(nxt), *host)
    assert r.exit_code == 0 and r.output.startswith("In sync"), r.output
    assert "host agree (" in r.output, r.output

    # A file of another game cannot be read: never "In sync ... nothing is to be done".
    other = new_game(tmp_path / "other")
    stray = _play_setup(other)
    r = cli(home2, "admin", "sync-check", str(stray), *host)
    assert r.exit_code == 0 and r.output.splitlines()[0].startswith("Nothing differs, but"), r.output
    assert "belongs to another game" in r.output
