"""Game options (4.1.1, 000:26-52).

User preferences (4.1.2) are per player and never part of the shared state.
Every option defaults to off; a scenario or the host's game creation turns
them on (docs/decisions.md, "State model and sequence").
"""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.rules.model.base import Record


@dataclass(frozen=True, slots=True)
class Options(Record):
    """The thirteen game options of 4.1.1, one flag each, in the manual's order (and the project's own after them)."""

    #: +1 to all terrain costs, crossing arrows restricted in winter zones (000:28, 13.1.3).
    winter_land_movement: bool = False
    #: Guard commitment raises the morale used on the combat table (000:30, 11.2.8).
    guard_commitment: bool = False
    #: The host may use the admin functions (000:32, 4.2.8).
    allow_pbem_host_functions: bool = False
    #: Options may be changed during play (000:34).
    allow_option_changes_during_game: bool = False
    #: Results of an external combat system may be imported (000:36).
    third_party_combat_system: bool = False
    #: Each player's files are protected by a password (000:38).
    pbem_hotseat_passwords: bool = False
    #: Economic manipulation display in use (000:40, 12.4.3).
    economic_manipulation: bool = False
    #: Great Britain and France start at war (000:42).
    gb_and_fr_start_at_war: bool = False
    #: Leader casualty checks after combat (000:44, 13.8.4).
    leader_casualties: bool = False
    #: Piracy affects trade (000:46, 8.9).
    privateers: bool = False
    #: No battle file exchange (000:48, 4.2.7).
    pbem_quick_combat: bool = False
    #: The Great Britain-Lille sea crossing may be used (000:50).
    use_lille_sea_crossing: bool = False
    #: Less battle information in the public log (000:52).
    fog_of_war: bool = False
    #: Not a 4.1.1 option (the project's own, docs/decisions.md "Diplomacy (issue 16)"):
    #: diplomacy orders in one round of mail, unsealed, for hot-seat and trusting groups.
    #: Off: each power first sends a commitment, then its orders (two rounds).
    one_round_diplomacy: bool = False
    #: Not a 4.1.1 option (the project's own, docs/decisions.md "Pace of play"): every reinforcement phase played.
    #: Off (the fast pace): every power a human plays starts the game with 13.9's continuous skip of its
    #: reinforcement phase, which the rules cancel for a month its reinforcements are ready (13.9.1); the player
    #: switches it off with 'eiapbem skip --phase reinforcement --mode off'.
    full_pace: bool = False
