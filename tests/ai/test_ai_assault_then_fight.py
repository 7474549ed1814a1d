"""The computer attacks what an assault leaves it to attack (11.0, 11.1; issue 19 item 2, "it never blocks").

An assault ends movement (11.0, 000:1606); at that moment an enemy can stand in the field where the power has
corps, and 11.1 (000:1610) then obliges an attack there. The land plan fought before its assaults only, so
Turkey's computer could not end this slot: "attack the enemy in temesvar". The state is the one the stuck
slot started from, found by `eiapbem bench ai-strength --seed 7` (campaign 11, Turkey at ai-hard) with a
trial change to the computer's diplomacy (it accepted control of attacked minors); it is stored canonically
encoded and zlib-compressed. The slot's dice are drawn as `client/duel.play` draws them. If the state format
changes, regenerate it from a stuck slot of the same kind or replace this test with a built scene.
"""

import hashlib
import zlib

from eiapbem import ai
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules.land.combat import Attack, areas_to_attack
from eiapbem.rules.model import GameState
from paths import DATA

STATE = DATA / "ai_tu_1806_01_assault.state.z"


def test_an_assault_that_leaves_an_enemy_in_the_field_is_followed_by_the_attack():
    st = GameState.decode_older(zlib.decompress(STATE.read_bytes()))  # kept by an older release (a field gained
    # since is read at its default, as a game moving to this release reads its state)
    key = st.slot.key(st.date)
    assert key == "1806-01/land/turn/TU" and areas_to_attack(st, "TU") == []
    ctx = rules_context(Dice(hashlib.sha256(b"ai-strength/7/11/" + key.encode()).digest()))
    turn = ai.play_slot(st, "TU", ctx)  # raised ai.AiStuck before the land plan fought after its assaults
    # When the state was kept, a garrison attack's beaten besiegers retreated into Temesvar, which Turkey then had to
    # attack; they now retreat by the retreat rules (11.4.2) and Austria's insurrection rises where the Turks enter
    # (13.2.4), so the slot goes otherwise.  What must hold: the slot ends, and every combat it owes is fought.
    assert any(isinstance(a, Attack) for a in turn.actions)
    assert areas_to_attack(turn.state, "TU") == []
