"""``eiapbem map --svg FILE``: the bare map's picture kept from an earlier run (``cli/mapcache.py``) is the picture
drawn, and a kept picture that does not match is drawn again."""

from __future__ import annotations

import shutil
from pathlib import Path

from clikit import cli
from eiapbem.cli import mapcache


def _kept(home: Path) -> list[Path]:
    return sorted((home / mapcache.CACHE_DIR).glob("map-*.svg"))


def test_the_kept_picture_is_the_picture_drawn(tmp_path, monkeypatch):
    first = cli(tmp_path, "map", "--svg", str(tmp_path / "a.svg"))
    assert first.exit_code == 0, first.output
    assert len(_kept(tmp_path)) == 1
    drawn = (tmp_path / "a.svg").read_bytes()

    def no_drawing(*a, **k):
        raise AssertionError("drawn again")

    from eiapbem.present import svgmap
    monkeypatch.setattr(svgmap, "render_svg", no_drawing)
    again = cli(tmp_path, "map", "--svg", str(tmp_path / "b.svg"))
    assert again.exit_code == 0, again.output
    assert again.output == first.output.replace("a.svg", "b.svg")
    assert (tmp_path / "b.svg").read_bytes() == drawn


def test_a_kept_picture_that_does_not_match_is_drawn_again(tmp_path):
    assert cli(tmp_path, "map", "--svg", str(tmp_path / "a.svg")).exit_code == 0
    drawn = (tmp_path / "a.svg").read_bytes()
    [kept] = _kept(tmp_path)
    good = kept.read_bytes()
    head, _, body = good.partition(b"\n")
    for bad in (head + b"\n" + body.replace(b"France", b"Frankreich", 1),  # the picture altered: its digest differs
                head.replace(b"eiapbem-map-1", b"eiapbem-map-0") + b"\n" + body,  # another format
                head[:40] + b"\n" + body,  # a header cut short
                good[: len(good) // 2],  # a file cut short
                b""):
        kept.write_bytes(bad)
        out = cli(tmp_path, "map", "--svg", str(tmp_path / "c.svg"))
        assert out.exit_code == 0, out.output
        assert (tmp_path / "c.svg").read_bytes() == drawn
        assert kept.read_bytes() == good  # kept again whole


def test_other_map_files_have_their_own_picture(tmp_path):
    import eiapbem

    folder = tmp_path / "map"
    shutil.copytree(Path(eiapbem.__file__).parent / "data" / "map", folder,
                    ignore=shutil.ignore_patterns("__*"))
    assert mapcache.key(folder) == mapcache.key(None)  # the same bytes, the same picture
    assert cli(tmp_path, "map", "--svg", str(tmp_path / "a.svg")).exit_code == 0
    seas = folder / "seas.json"
    seas.write_text(seas.read_text(encoding="utf-8").replace('"name": "North Sea"', '"name": "German Ocean"', 1),
                    encoding="utf-8")
    assert mapcache.key(folder) != mapcache.key(None)
    out = cli(tmp_path, "map", "--svg", str(tmp_path / "b.svg"), "--path", str(folder))
    assert out.exit_code == 0, out.output
    assert b"German Ocean" in (tmp_path / "b.svg").read_bytes()
    assert len(_kept(tmp_path)) == 2


def test_a_folder_that_cannot_keep_a_picture_still_draws(tmp_path):
    (tmp_path / mapcache.CACHE_DIR).write_text("a file where the folder would be", encoding="utf-8")
    out = cli(tmp_path, "map", "--svg", str(tmp_path / "a.svg"))
    assert out.exit_code == 0, out.output
    assert (tmp_path / "a.svg").stat().st_size > 100_000
