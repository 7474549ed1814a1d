"""What campaigns of seven ai-hard computers have, played in memory (issue 28's measures, without the folders).

Plays classic-1805 from its start with all seven powers at ``ai-hard``, as ``eiapbem campaign`` plays its computer
players but in one process and without folders or files (``client.duel.play``), for MONTHS months per seed, and
prints for each seed the figure lines ``eiapbem campaign`` prints (wars, alliances, subsidies, battles of armies,
capitals, peaces, corps moved per power, foraging against battle losses, provinces, the slowest slot).  Seed N
draws the game's dice as ``bench ai-strength`` does (``ai-strength/N``, ``client.campaign_ladder.play_job``), so
the same seed gives the same campaign on every computer.  A measurement
tool, not a test; the slowest slot's figure shows the machine's load:

    python tools/measure_ai_campaigns.py MONTHS SEED [SEED ...]
"""

from __future__ import annotations

import sys
import time

from eiapbem.client import duel
from eiapbem.client.campaign_measures import Chronicle
from eiapbem.rules.model import POWERS, PlayerKind


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not all(a.isdigit() for a in argv):
        print(__doc__.strip().splitlines()[-1].strip())
        return 2
    months = int(argv[0])
    for n in argv[1:]:
        seed = f"ai-strength/{n}".encode()
        start = duel.start_state("classic-1805", {p: PlayerKind.AI_HARD for p in POWERS}, seed)
        chronicle = Chronicle()
        t = time.process_time()
        played = duel.play(start, "classic-1805", seed, months, chronicle=chronicle, clock=time.process_time)
        print(f"=== seed {n} ({time.process_time() - t:.0f} s of CPU)")
        for line in chronicle.figures(played.journal, months).lines():
            print(line)
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
