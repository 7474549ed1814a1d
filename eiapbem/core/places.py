"""A place as a person types it, in the map's spelling: the map's ids are lower case with hyphens.

Light on purpose (no map, no rules): the command line normalises a place before it knows whether the game is
to be opened at all (``cli/answers.py`` keys a read-only command's answer on it).
"""

from __future__ import annotations


def place_name(text: str) -> str:
    """``Cracow``, ``St Petersburg``, ``cracow, warsaw`` in the map's spelling (``cracow``, ``st-petersburg``,
    ``cracow,warsaw``)."""
    return ",".join("-".join(part.strip().lower().split()) for part in text.split(","))
