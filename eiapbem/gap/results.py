"""The GAP results text (4.2.10, ``000:274``) and its re-check by any player.

``render_results`` is the whole ``GameName.txt``: ``arbitrate.render_text``
(winners, costs, every bid, the wars with aggressors listed vertically) and a
final ``Published bids`` section holding, one item per line, every player's
address, name, bid file fingerprint, seven bids and requested wars
(docs/file-format.md 10.4).  ``verify_results`` rebuilds the bids from that
section, re-runs the draw and accepts the text only if it is exactly the text
the draw gives, so a player holding only the ``.txt`` can check the seed and
every tie-break.  Pure: text in, text out; no files, no crypto.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from .arbitrate import POWERS, BadBid, Bid, Result, arbitrate, render_text

SECTION = "Published bids (eiapbem gap verify re-runs the draw from these lines)"
_FP_RE = re.compile(r"[0-9a-f]{16}\Z")


class BadResults(BadBid):
    """A results text that is damaged, altered, or does not follow from its own bids."""


def render_results(result: Result, fingerprints: Mapping[str, str]) -> str:
    """The results text; ``fingerprints`` maps each address to its bid file's fingerprint (16 hex digits)."""
    lines = [render_text(result).rstrip("\n"), "", SECTION, ""]
    for b in result.bids:
        fp = fingerprints[b.email]
        if not _FP_RE.match(fp):
            raise ValueError(f"bid file fingerprint {fp!r} is not 16 hex digits")
        wars = " ".join(f"{a}:{t}" for a, ts in b.wars for t in ts) or "none"
        lines += [
            f"bidder {b.email}",
            f"  name {b.name}",
            f"  file {fp}",
            "  bids " + " ".join(f"{p}={v}" for p, v in b.bids),
            f"  wars {wars}",
        ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Checked:
    """A results text that checks out: the draw re-run and its bid file fingerprints."""

    result: Result
    fingerprints: dict[str, str]


def _field(lines: list[str], i: int, prefix: str, name: str) -> str:
    if i >= len(lines) or not lines[i].startswith(prefix):
        raise BadResults(f"{name}: line {i + 1} should start with {prefix.strip()!r}; the results text is damaged or altered")
    return lines[i][len(prefix) :]


def _header_value(lines: list[str], prefix: str, name: str) -> str:
    for line in lines:
        if line.startswith(prefix):
            return line[len(prefix) :]
    raise BadResults(f"{name} has no line starting {prefix!r}; it is not a complete GAP results text")


def parse_results(text: str, name: str = "the results text") -> tuple[str, bool, list[Bid], dict[str, str]]:
    """The game, the Britain-France option, the published bids (no passwords) and their fingerprints."""
    lines = text.split("\n")
    game = _header_value(lines, "GAP results for game ", name)
    option = _header_value(lines, "Great Britain and France start at war: ", name)
    if option not in ("yes", "no"):
        raise BadResults(f"{name} says {option!r} for the Britain-France option; it must say yes or no")
    try:
        i = lines.index(SECTION) + 2
    except ValueError as err:
        raise BadResults(f"{name} has no 'Published bids' section; it was not written by eiapbem gap resolve") from err
    bids: list[Bid] = []
    fps: dict[str, str] = {}
    while i < len(lines) and lines[i]:
        email = _field(lines, i, "bidder ", name)
        pname = _field(lines, i + 1, "  name ", name)
        fp = _field(lines, i + 2, "  file ", name)
        if not _FP_RE.match(fp):
            raise BadResults(f"{name}: line {i + 3} holds no bid file fingerprint of 16 hex digits")
        values: dict[str, int] = {}
        for item in _field(lines, i + 3, "  bids ", name).split(" "):
            power, _, v = item.partition("=")
            if power not in POWERS or power in values or not re.fullmatch(r"0|[1-9][0-9]{0,3}", v):
                raise BadResults(f"{name}: line {i + 4} holds {item!r}, which is not a bid such as GB=10")
            values[power] = int(v)
        if list(values) != list(POWERS):
            raise BadResults(f"{name}: line {i + 4} must give the seven bids in the order {' '.join(POWERS)}")
        wars: dict[str, list[str]] = {}
        raw = _field(lines, i + 4, "  wars ", name)
        if raw != "none":
            for item in raw.split(" "):
                agg, _, target = item.partition(":")
                if agg not in POWERS or target not in POWERS:
                    raise BadResults(f"{name}: line {i + 5} holds {item!r}, which is not a war such as FR:AU")
                wars.setdefault(agg, []).append(target)
        bid = Bid.make(game, pname, email, values, wars, None)
        bids.append(bid)
        fps[email] = fp
        i += 5
    return game, option == "yes", bids, fps


def verify_results(text: str, name: str = "the results text") -> Checked:
    """Re-run the draw of a results text; refuse it unless it is exactly what the draw gives."""
    game, gb_fr_war, bids, fps = parse_results(text, name)
    result = arbitrate(bids, gb_fr_war=gb_fr_war)
    expected = render_results(result, fps)
    if expected != text:
        got_lines, want_lines = text.split("\n"), expected.split("\n")
        n = next((k for k, (a, b) in enumerate(zip(got_lines, want_lines)) if a != b), min(len(got_lines), len(want_lines)))
        got = got_lines[n] if n < len(got_lines) else "(end of text)"
        want = want_lines[n] if n < len(want_lines) else "(end of text)"
        raise BadResults(
            f"{name} does not follow from its own published bids: line {n + 1} reads {got.strip()!r} "
            f"where the draw gives {want.strip()!r}",
            hint="ask the arbitrator for the original results; the text was changed after the draw",
        )
    return Checked(result, fps)
