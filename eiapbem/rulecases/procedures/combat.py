"""Rules-case procedures (moved out of the rules core, issue 14 item 6)."""

from __future__ import annotations

from eiapbem.rulecases.harness import procedure
from eiapbem.core.dice import Dice
from eiapbem.core.errors import BadData
from eiapbem.rulecases.inputs import need, need_ints
from eiapbem.rules.combat.commander import effective_tactical_rating
from eiapbem.rules.combat.morale import base_morale, final_morale
from eiapbem.rules.combat.pursuit import pursuit_column, pursuit_random_number
from eiapbem.rules.combat.siege import assault_attempt
from eiapbem.rules.combat.tables_use import loss_basis_factors, round_tables
from eiapbem.rules.tables import land


# from eiapbem.rules.combat.commander

@procedure("commander.tactical-rating")
def _tactical_rating_case(inp: dict, dice: Dice) -> dict:
    rating = need(inp, "tactical_rating", int)
    tmr = need(inp, "tactical_maximum", int)
    return {"tactical_rating": [effective_tactical_rating(rating, tmr, n) for n in need_ints(inp, "corps")]}


@procedure("commander.modifiers")
def _modifiers_case(inp: dict, dice: Dice) -> dict:
    att, dfn = land.commander_modifiers(need(inp, "attacker_rating", int), need(inp, "defender_rating", int))
    return {"attacker_modifier": att, "defender_modifier": dfn}


# from eiapbem.rules.combat.morale

@procedure("morale.base")
def _base_case(inp: dict, dice: Dice) -> dict:
    groups = []
    for g in need(inp, "groups", list):
        if not isinstance(g, dict):
            raise BadData(f"each entry of 'groups' is a table with factors and morale, not {g!r}")
        groups.append((need(g, "factors", int), need(g, "morale", int)))
    total = sum(f for f, _ in groups)
    return {
        "total_factors": total,
        "weighted_morale": sum(f * m for f, m in groups),
        "base_morale": base_morale(groups),
    }


@procedure("morale.final")
def _final_case(inp: dict, dice: Dice) -> dict:
    base = need(inp, "base_morale", int)
    modifier = need(inp, "modifier", int, 0)
    return {"final_morale": [final_morale(base, d, modifier) for d in need_ints(inp, "days")]}


# from eiapbem.rules.combat.pursuit

@procedure("pursuit.class")
def _class_case(inp: dict, dice: Dice) -> dict:
    loss = need(inp, "victor_morale_loss", int)
    rounds = need(inp, "rounds", int)
    terrain = need(inp, "terrain", str, None)
    pclass = land.pursuit_class(loss, rounds)
    return {
        "pursuit_class": 0 if pclass is None else pclass,
        "column": pursuit_column(loss, rounds, terrain=terrain) or 0,
    }


@procedure("pursuit.losses")
def _losses_case(inp: dict, dice: Dice) -> dict:
    """Draws the pursuit random number (label ``pursuit/random-number``) and reads the pursuit table."""
    column = pursuit_column(
        need(inp, "victor_morale_loss", int, 0),
        need(inp, "rounds", int, 1),
        terrain=need(inp, "terrain", str, None),
        loser_withdrew_unbroken=need(inp, "loser_withdrew_unbroken", bool, False),
    )
    if column is None:
        return {"column": 0, "loss_percent": 0}
    rn = pursuit_random_number(dice.d6("pursuit/random-number"), need(inp, "cavalry_leader", bool, False))
    return {"column": column, "random_number": rn, "loss_percent": land.pursuit_loss_percent(rn, column)}


# from eiapbem.rules.combat.siege

@procedure("siege.assault-attempt")
def _assault_case(inp: dict, dice: Dice) -> dict:
    """Draws ``siege/assault-attempt`` and reads the siege table."""
    factors = need(inp, "garrison_factors", int)
    capacity = need(inp, "garrison_capacity", int)
    rn, result = assault_attempt(dice.d6("siege/assault-attempt"), need(inp, "siege_value", int), factors, capacity)
    return {"undergarrisoned": land.is_undergarrisoned(factors, capacity), "random_number": rn, "result": result}


# from eiapbem.rules.combat.tables_use


def _chits(inp: dict) -> tuple[str, str]:
    return need(inp, "attacker_chit", str), need(inp, "defender_chit", str)

@procedure("combat.tables")
def _tables_case(inp: dict, dice: Dice) -> dict:
    """The three rounds' tables for two chits (optionally terrain, river crossing, arrival)."""
    att_chit, dfn_chit = _chits(inp)
    attacker, defender = [], []
    for r in (1, 2, 3):
        a, d = round_tables(
            att_chit,
            dfn_chit,
            r,
            river_crossing=need(inp, "river_crossing", bool, False),
            terrain=need(inp, "terrain", str, None),
        )
        attacker.append(str(a))
        defender.append(str(d))
    return {"attacker": attacker, "defender": defender}


@procedure("combat.effective-table")
def _effective_table_case(inp: dict, dice: Dice) -> dict:
    """One table under a list of modifications, each {side, terrain?, guard_shift?}."""
    table = land.CombatTable.parse(need(inp, "table", str))
    out = []
    for m in need(inp, "modifications", list):
        if not isinstance(m, dict):
            raise BadData(f"each modification is a table with side, terrain and guard_shift, not {m!r}")
        out.append(
            str(
                land.effective_table(
                    table,
                    need(m, "side", str),
                    terrain=need(m, "terrain", str, None),
                    guard_shift=need(m, "guard_shift", int, 0),
                )
            )
        )
    return {"tables": out}


@procedure("combat.outflanking")
def _outflanking_case(inp: dict, dice: Dice) -> dict:
    """Rounds of an outflanking battle: tables and the outflanking side's loss-basis factors.

    Input: the chits, ``pinning_factors``, ``outflanking_factors``,
    ``pinning_losses`` (factors lost by the pinning force in each round),
    ``arrives_after_round`` (0: never) and ``rounds``.
    """
    att_chit, dfn_chit = _chits(inp)
    pairing = land.operational_possibility(att_chit, dfn_chit)
    if pairing.outflanker is None:
        raise BadData(f"{att_chit} against {dfn_chit} has no outflanking side")
    pinning = need(inp, "pinning_factors", int)
    outflanking = need(inp, "outflanking_factors", int)
    losses = need_ints(inp, "pinning_losses")
    arrives_after = need(inp, "arrives_after_round", int)
    rounds = need(inp, "rounds", int)
    if len(losses) < rounds - 1:
        raise BadData(f"'pinning_losses' needs the losses of the first {rounds - 1} rounds")
    out = []
    for r in range(1, rounds + 1):
        arrived = 0 < arrives_after < r
        a, d = round_tables(att_chit, dfn_chit, r, outflank_arrived=arrived)
        out.append(
            {
                "round": r,
                "outflanker_factors": loss_basis_factors(pinning, outflanking, arrived),
                "attacker_table": str(a),
                "defender_table": str(d),
            }
        )
        pinning -= losses[r - 1] if r - 1 < len(losses) else 0
    return {"outflanker": pairing.outflanker, "rounds": out}
