"""Rules-case procedure ``gap.arbitrate``: the GAP arbitration of sealed bids (4.2.10)."""

from __future__ import annotations

from eiapbem.gap.arbitrate import case_arbitrate
from eiapbem.rulecases.harness import procedure

procedure("gap.arbitrate")(case_arbitrate)
