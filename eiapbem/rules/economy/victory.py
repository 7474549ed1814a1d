"""12.1 Victory points tally and campaign victory (000:2042-2070); the AI's
starting victory point bonus of 4.2.3 (000:148-154).  Step A.
"""

from __future__ import annotations


from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.core.dice import Dice
from eiapbem.rules.economy.common import Work, status_box
from eiapbem.rules.relations import at_war
from eiapbem.rules.model import POWERS, Date, GameState, PlayerKind
from eiapbem.rules.tables.economy import VICTORY_LEVELS
from eiapbem.rules.engine import RulesContext

STEP = "12.1 victory points"
#: 4.2.3: the AI's starting bonus, a random percentage (1-3 medium, 2-6 hard) of its level.
AI_START_BONUS = {PlayerKind.AI_MEDIUM: (1, 3), PlayerKind.AI_HARD: (2, 6)}


def campaign_of(state: GameState) -> str:
    """The victory levels' campaign for the state's scenario (by its first year)."""
    for name in VICTORY_LEVELS:
        first, last = name.split("-")
        if int(first) <= state.start.year <= int(last):
            return name
    return "1805-1815"


def victory_level(state: GameState, power: str) -> int:
    """The level to reach: the chart's (003:80-120) plus the PBEM bid (12.1.1, 000:2050)."""
    return VICTORY_LEVELS[campaign_of(state)][power] + state.powers[power].vp_bid


def tally_points(ctx: RulesContext, status: int) -> int:
    """Victory points of a box on the political status display (12.1: box 23 gives 6, 000:2044)."""
    return status_box(ctx, status)["victory_points"]


def max_deduction(gain: int) -> int:
    """12.1.2 (000:2054): Great Britain may use up to a third of its quarterly gain."""
    return gain // 3


def check_deduction(state: GameState, ctx: RulesContext, target: str | None, amount: int) -> None:
    if target is None and amount == 0:
        return
    if target is None or amount <= 0:
        raise IllegalAction("a victory point deduction names one power and a positive number of points")
    if not at_war(state, "GB", target):
        raise IllegalAction(f"Great Britain may deduct victory points only from a power it is at war with, not {target} (12.1.2)")
    most = max_deduction(tally_points(ctx, state.powers["GB"].political_status))
    if amount > most:
        raise IllegalAction(f"Great Britain may deduct at most {most} victory points this quarter, a third of its gain (12.1.2)")


def last_tally(state: GameState) -> Date:
    """The month of the campaign's last victory points tally (the last economic month)."""
    d = state.end
    while d.month not in (3, 6, 9, 12):
        d = d.previous()
    return d


def tally(w: Work) -> None:
    """Step A: every power gains its box's points; Great Britain may turn up to a third of its
    gain into a deduction from one enemy; then the campaign victory check."""
    gains = {p: tally_points(w.ctx, w.state.powers[p].political_status) for p in POWERS}
    gb = w.orders("GB")
    target, amount = gb.vp_deduction_target, gb.vp_deduction
    if target is not None and amount > 0:
        if not at_war(w.state, "GB", target) or amount > max_deduction(gains["GB"]):
            w.note("GB", STEP, "victory point deduction", f"refused: not allowed against {target} for {amount}")
            target, amount = None, 0
    for p in POWERS:
        gain = gains[p] - (amount if p == "GB" else 0)
        ps = w.state.powers[p]
        w.state = w.state.with_power(p, victory_points=ps.victory_points + gain)
        w.ledger.add(p, STEP, "victory points", vp=gain,
                     detail=f"political status {ps.political_status}" + (f", {amount} used against {target}" if p == "GB" and amount else ""))
    if target is not None and amount:
        ps = w.state.powers[target]
        w.state = w.state.with_power(target, victory_points=ps.victory_points - amount)
        w.ledger.add(target, STEP, "deducted by Great Britain", vp=-amount, detail="12.1.2")
    check_victory(w)


def check_victory(w: Work) -> None:
    """12.1.3 (000:2064-2068): those at or above their level win together; nobody at the
    campaign's last tally: Great Britain wins."""
    state = w.state
    winners = tuple(p for p in POWERS if state.powers[p].victory_points >= victory_level(state, p))
    if not winners and state.date >= last_tally(state):
        winners = ("GB",)
        w.note("GB", STEP, "campaign victory", "nobody reached its level by the end: Great Britain wins")
    for p in winners:
        w.note(p, STEP, "campaign victory",
               f"{state.powers[p].victory_points} of {victory_level(state, p)} victory points")
    if winners:
        w.state = state.replace(victors=winners)


def percentages(state: GameState) -> dict[str, int]:
    """Each power's victory points as a whole percentage of its level (rounded down)."""
    return {p: state.powers[p].victory_points * 100 // victory_level(state, p) for p in POWERS}


def shorter_campaign_winners(state: GameState) -> tuple[str, ...]:
    """12.1.3 "Shorter Campaigns" (000:2070): the largest percentage of its level wins (ties share)."""
    pct = percentages(state)
    best = max(pct.values())
    return tuple(p for p in POWERS if pct[p] == best)


def ai_start_bonus(state: GameState, power: str, dice: Dice) -> int:
    """4.2.3 (000:148-154): victory points an AI power gets at the start of the game, a random
    percentage of its level (easy none, medium 1-3%, hard 2-6%), rounded down."""
    rng = AI_START_BONUS.get(state.powers[power].controller)
    if rng is None:
        return 0
    lo, hi = rng
    pct = lo - 1 + dice.one_to(hi - lo + 1, f"game/ai-bonus/{power}")
    return VICTORY_LEVELS[campaign_of(state)][power] * pct // 100


def with_ai_start_bonuses(state: GameState, dice: Dice) -> GameState:
    """The first state with every AI power's start bonus of 4.2.3 (000:148-154) added to its
    victory points and logged; ``dice`` are the game creation's (docs/file-format.md 7.3)."""
    for p in POWERS:
        bonus = ai_start_bonus(state, p, dice)
        if bonus:
            ps = state.powers[p]
            state = state.with_power(p, victory_points=ps.victory_points + bonus)
            if state.slot is not None:
                state = engine.log(state, "game", "game.ai-bonus",
                                   f"{p} ({ps.controller}) starts with a bonus of {bonus} victory points (4.2.3)",
                                   power=p, vp=bonus).state
    return state
