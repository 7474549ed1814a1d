"""What the three AI levels do differently (4.2.1, 000:76-84; docs/decisions.md "AI players").

The manual names the levels (easy, medium, hard) and their bonuses (4.2.3 start
bonus, 12.0 economic bonus) but not how they play; these knobs are the
project's own, chosen so that the levels differ in ways a test can see:

============================  ==============  ===================  ===================
knob                          easy            medium               hard
============================  ==============  ===================  ===================
setup                         shipped default shipped default      shipped default
reinforcement placement       first corps     smallest corps first corps nearest the
                              by id                                enemy first
capital garrison              --              --                   infantry/militia due
                                                                   go first to the
                                                                   capital's garrison
                                                                   until it holds 4
                                                                   (after the corps
                                                                   where no enemy
                                                                   reaches it by land)
threatened capital            --              garrison factors     garrison factors
                                              there first          there first
empty cities near the enemy   --              --                   1 garrison factor each
share of the projected money  25%             50%                  75%
spent on factors
cavalry bought                none            none                 1 per 4 infantry
militia with the manpower     no              yes                  yes
left (unused is lost, 12.5.6)
ships, counters at war        no              10% on heavy ships   15% (GB: 45%);
                                              (GB: 30%); a corps   a corps counter
                                              counter when full    when full
a lost corps rebuilt (fewer   yes             yes                  yes
than 2 line corps, 12.5.4)
manipulation (toward points)  no              no                   yes
land movement at war:         2; the 3        2; the 5 nearest     3; the 8 nearest
armies under the best         nearest goals   within 9, by         within 12, by
leaders; goals weighed        within 6        strength with the    playing uncertain
(``ai.armies``); battles      movement        corps next to it     battles forward
judged (``ai.odds``)          points, by                           (6 samples, won in
                              factors                              60%)
a goal deep in enemy land     weighed         none the enemy can   as medium
(``armies.goal``,             however         close on with 150%
``Level.exposure``)           exposed         of the army and the
                                              friends in reach
the enemy at the capital's    not seen        no goal from         as medium
door (``armies.threats``)                     another enemy
                                              meanwhile
odds to enter an enemy stack  1:1             1.3:1 (those who     1.3:1
                                              arrive together)
assault a besieged city       3:1             2.5:1                2:1; sorties at 2:1
fall back into a city         never           outnumbered 2:1      outnumbered 1.5:1
defend a threatened capital   no              yes                  yes
depots to follow the corps    no              yes                  yes
battle chit                   at random       best against the     best answer to the
                              (dice)          likeliest enemy chit enemy's foreseeable
                                                                   pick (a medium or
                                                                   random one), else
                                                                   best worst case;
                                                                   against a human
                                                                   drawn from the
                                                                   equilibrium
breach in a city's walls      surrenders at   surrenders at 5:1    fights under 3:1,
(11.4.1, odds.storm_holds)    5:1 in factors  in strength          surrenders at 10:1;
                                                                   between, plays the
                                                                   storm forward
storm casualties (11.4.1)     at random       cheapest first       cheapest first
other decisions               at random       first option         first option
war plan: declarations,       the same at every level (the levels differ in how they fight, not in how ready
peace, wars on minors         they are for war; issue 28 item 3): the sides of a war seen with the allies called,
(ai.judge, ai.strategy,       the fronts and distances, a second front, joint declarations of allies and the
ai.grand)                     coalitions already at war with the enemy (``judgment`` "coalition"); a horizon of
                              24 months; every power in reach weighed (6 candidates); a war declared (at most one
                              a month) when it is worth victory points over the horizon: the chances of the
                              sides, the political points of a surrender and of the battles, the -3 of the
                              declaration, the natural alliance table's stance, the field battles of the last 12
                              months between the two (``judge.MEMORY``); peace (6.4) sued for when going on
                              costs more than a surrender (capitals and home areas held by the enemy, the battles
                              lost, the chances), informal peace when the war is worth nothing more, war-weariness
                              after 8 months without a decision; wars on neutral minors at 3:1
alliances asked a month,      1; 10%             2; 25%               3; 40%
treasury given to allies
at war (6.12)
minors manipulated            none               1 with 5% of money   2 with 10% of money
victor's terms                B.2, B.3 (no    B.4 (+2 political    B.4 (+2 political
                              points)         points), B.3, B.1... points), B.3, B.1...;
                                              unconditional when   always conditional
                                              under 40%
GB denies trade to enemies    no              no                   yes
of its allies
fleets blockade / attack      at 120% of the  at 200% of the enemy at 150%
                              enemy
invasions by sea (one at a    1 corps         2 corps together;    4 corps together;
time)                                         minors at war too    minors at war too
forced march (capital in      never           expected forage      up to 20% of the
time, a battle at the odds)                   loss up to 10% of    corps
                                              the corps
Cossack / Freikorps raids     destroy depots, and cut supply       and end out of
(placed at the levy check)    take empty      chains               enemy corps' reach
                              cities
"Accept control of" (6.6)     every neutral   every neutral minor  every neutral minor
                              minor it could  it could run         it could run
                              run
war on a minor another power  declares anyway declares anyway      never (``runner_ratio``
would run (6.6, 6.2.1)                                             0)
a minor a stronger computer   left alone      left alone (6.6.3)   left alone (6.6.3)
picks the same month
Turkish feudal corps          on the map at   on the map at war,   on the map at war,
(13.2.3)                      war, raised in  raised in December   raised in December
                              December
============================  ==============  ===================  ===================
"""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.rules.model import PlayerKind


@dataclass(frozen=True)
class Level:
    kind: PlayerKind
    #: Reinforcement: "first" (corps in id order), "spread" (the smallest corps first) or "front" (the corps
    #: nearest the enemy first, then the smallest).
    placement: str
    #: Factors the capital's garrison is brought up to before corps get infantry/militia (0: not at all).
    capital_garrison: int
    #: Percentage of the projected closing money (and manpower) spent on factors.
    spend_share: int
    #: Infantry bought per cavalry factor (0: no cavalry).
    infantry_per_cavalry: int
    #: Militia bought with the manpower left (it would be lost, 12.5.6).
    militia: bool
    #: Battle chits: "random", "likeliest", "maximin" (the best worst case) or "mixed" (as maximin, but against a
    #: human drawn from the chart's equilibrium, ``decisions.mixture``).
    chits: str
    #: Other decisions: "random" or "first".
    decisions: str
    #: Attacker strength per hundred of the defender's the AI wants before entering an enemy stack's area.
    attack_odds: int = 100
    #: Besiegers' strength per hundred of the forces inside before an assault (0: never assaults).
    assault_odds: int = 0
    #: Enemy strength nearby per hundred of its own at which a corps falls back into a city (0: never).
    retreat_odds: int = 0
    #: Corps march to a national capital the enemy threatens.
    defend_capital: bool = False
    #: Depots are placed to keep the supply chain up with the corps (10.3).
    depots: bool = False
    #: How far (movement points) an army's goals may lie (``ai.armies``; twice as far for a goal worth the most).
    horizon: int = 0
    #: A besieged garrison twice as strong as its besiegers attacks them (11.4.2).
    sortie: bool = False
    #: Garrison factors put first in each empty home city an enemy corps could reach (0: none).
    city_garrisons: int = 0
    #: Economy at war (eiapbem/ai/economy.py): percentage of the budget spent on heavy ships (x3 for Great Britain),
    #: corps counters bought when the corps are full, the manipulation display used.
    ship_share: int = 0
    counters: bool = False
    manipulation: bool = False

    # --- war and peace (``eiapbem.ai.strategy``, ``eiapbem.ai.judge``; issue 28 item 1) ---
    #: What it sees of the sides of a war: "own" (the two powers' whole armies), "allies" (co-belligerents, the
    #: allies called, distances and fronts) or "coalition" (also a second front, and joint declarations of allies).
    judgment: str = "coalition"
    #: The plan's horizon in months: what a war, a peace or an occupation is worth is reckoned over it.
    plan_months: int = 24
    #: Candidate wars weighed each month (the most hostile first).
    plan_candidates: int = 6
    #: Months fought without a decision (``judge.war_state``) after which the chances of a war fade (war-weariness;
    #: informal peace, 6.4.1).
    weary_months: int = 8
    #: Percentage of its treasury above ``ai.strategy.RESERVE`` given each month to allies fighting its enemies (6.12).
    subsidy_share: int = 40
    #: Declares war on a neutral minor country (6.2, 6.15) whose forces its own outnumber by this percentage,
    #: when at peace with every major or clearly winning its one war (0: never).
    minor_war_ratio: int = 300
    #: Ticks "Accept control of" (6.6) for the neutral minors it could run (``grand.accepts_control``), but (when
    #: not 0) those a bordering major outnumbers by ``accept_hold`` percent: it would lose them.
    accept_control: bool = True
    accept_hold: int = 0
    #: Weighs who would run a minor before declaring war on it (``grand.runners``): only on one no other power
    #: would run, or whose forces with the strongest runner's at war with it its own outnumber by ``runner_ratio``
    #: percent (0: never on a minor someone would run).
    weigh_runners: bool = False
    runner_ratio: int = 0
    #: Alliances asked for per month (0: none).
    seek_alliances: int = 1
    #: Manipulation attempts on minor countries per month (6.1.4; at most 2) and the share of its money invested.
    manipulations: int = 2
    invest_share: int = 10
    #: Conditional terms even to a crushed enemy (an unconditional surrender the loser refuses earns nothing).
    sure_terms: bool = False
    #: Victor's terms: "plain" (longer peace, reparations) or "harsh" (royal marriage, reparations, corps removed).
    terms: str = "harsh"
    #: Great Britain denies trade to a power at war with one of its allies.
    deny_trade: bool = True
    # --- naval (``eiapbem.ai.naval``) ---
    #: Blockades an enemy port whose fleets it outnumbers by this percentage (0: never blockades).
    blockade_ratio: int = 150
    #: Attacks enemy fleets where it stands when it outnumbers them by this percentage (0: never).
    attack_ratio: int = 150
    # --- issue 19 item 1 gaps (``eiapbem.ai.naval`` invasions, ``eiapbem.ai.march``, ``eiapbem.ai.raids``) ---
    #: Corps carried together in one invasion by sea (0: no invasions).
    invasion_corps: int = 4
    #: Invades neutral minor countries it is at war with (6.15), not only the enemy majors and their minors.
    invade_minors: bool = True
    #: Forced marches (``eiapbem.ai.march``): the most expected forage loss of a forced-marching corps accepted, in
    #: percent of its factors (0: never forced marches).
    forced_march: int = 20
    #: Cossack and Freikorps raids (``eiapbem.ai.raids``): "depots" (destroy depots, take empty cities), "supply"
    #: (also cut the enemy's supply chains) or "safe" (also end out of the enemy corps' reach); "" for none.
    raids: str = "safe"
    # --- operations (``eiapbem.ai.armies``, ``eiapbem.ai.operations``, ``eiapbem.ai.odds``, issue 28 item 2) ---
    #: How it judges a battle (``eiapbem.ai.odds``): "factors", "strength" (with the corps next to it) or "search"
    #: (and plays an uncertain battle forward ``samples`` times, fighting it when it wins ``win_share`` percent).
    judge: str = "search"
    samples: int = 6
    win_share: int = 60
    #: Armies formed under its best leaders, and the goals each weighs (nearest first).
    armies: int = 3
    plans: int = 8
    #: Factors kept inside a national capital's city while enemy field forces are within reach.
    garrison: int = 4
    #: The expected forage loss per corps (hundredths of a factor) it accepts where a march ends.
    forage_risk: int = 15
    #: Beyond its own territory an army weighs no goal that the enemy's field forces able to reach it by the month
    #: after the army's arrival exceed this many per hundred of the army's strength and the friendly field forces that
    #: can reach it as soon (``assess.enemy_in_reach``, ``assess.friends_in_reach``): a corps sent alone deep into
    #: enemy land is met there by the enemy's whole army (0: not judged).
    exposure: int = 150
    #: Sees the enemy army at the door of a national capital (``armies.threats``) and faces it before another enemy.
    threats: bool = True



LEVELS: dict[PlayerKind, Level] = {
    PlayerKind.AI_EASY: Level(PlayerKind.AI_EASY, "first", 0, 25, 0, True, "random", "random",
                              attack_odds=100, assault_odds=300, horizon=6,
                              subsidy_share=10,
                              seek_alliances=1, manipulations=0, invest_share=0, terms="plain", deny_trade=False,
                              blockade_ratio=120, attack_ratio=120, invasion_corps=1, invade_minors=False, forced_march=0,
                              raids="depots", judge="factors", samples=0, armies=2, plans=3,
                              garrison=2, forage_risk=150, exposure=0, threats=False),
    PlayerKind.AI_MEDIUM: Level(PlayerKind.AI_MEDIUM, "spread", 0, 50, 0, True, "likeliest", "first",
                                attack_odds=130, assault_odds=250, retreat_odds=200,
                                defend_capital=True, depots=True, horizon=9,
                                ship_share=10, counters=True,
                                subsidy_share=25, seek_alliances=2, manipulations=1, invest_share=5, terms="harsh",
                                deny_trade=False, blockade_ratio=200, attack_ratio=200, invasion_corps=2,
                                forced_march=10, raids="supply", judge="strength", samples=0, armies=2, plans=5,
                                garrison=3, forage_risk=60),
    PlayerKind.AI_HARD: Level(PlayerKind.AI_HARD, "front", 4, 75, 4, True, "mixed", "first",
                              attack_odds=130, assault_odds=200, retreat_odds=150,
                              defend_capital=True, depots=True, horizon=12, sortie=True, city_garrisons=1,
                              ship_share=15, counters=True, manipulation=True, seek_alliances=3,
                              sure_terms=True, weigh_runners=True, runner_ratio=0),
}


#: Each level's version (written in the gamestart, ``rules.turn.versions``): bump a level's number whenever a
#: change of its play could give another state from the same files (its games in progress are then refused
#: with one sentence at ``load`` instead of forking).
VERSIONS: dict[str, int] = {"ai-easy": 35, "ai-medium": 35, "ai-hard": 35}  # 2: diplomacy orders (issue 16); 3: land,
# reinforcement and economy play (issue 19); 4: war and peace, fleets (issue 19); 5: invasions of several corps and
# of minors, forced marches, Cossack raids and levies (issue 19 item 1); 6: victor's terms, informal peace before a
# surrender, no land war open to a second front, manipulation toward political points (issue 19 item 4); 7: no war on
# a natural friend, wars on neutral minors; 8: "Accept control of" (6.6), the hard level weighs who would run a minor,
# no two computers on one minor (6.6.3), Turkish feudal corps (13.2.3), a lost capital counts as losing; 9: an
# obligation the plans leave open is met from the rules' list of possible actions (``ai.meet_obligations``); 10: the
# war plan (ai.strategy: declarations, coalitions, alliances, subsidies, peace by what a war is worth); 11: armies,
# goals, supply-aware marches, garrisons, proportionate answers and judged battles (issue 28 item 2), the loser
# foreseeing the victor's terms; 12: a new war judged with the field battles of the last year between the two; 13: an
# answer to an incursion led by a corps that reaches the enemy stack this slot; 14: no peace before a war is decided,
# the winner goes on, a surrender only when overrun, coalitions joined against a rival, no money to an enemy's ally,
# the easy level's wars on minors; 15: idle armies join the marches of the others, no chase of far stacks in the
# enemy's land, capitals besieged, depots judged ahead of a march, corps at peace spread where foraging would cost
# them factors; 16: stranded corps fetched by fleets and carried to the war, landings held and kept to the coast
# aimed at (``ai.amphibious``); 17: an enemy capital under siege stormed by the army, no informal peace during it,
# lost corps rebuilt, armies at peace camped on the likely enemy's border (``ai.deploy``); 18: an army marching on an
# enemy capital within reach accepts some foraging on the way and never turns back from it to eat, capitals weighed by
# their walls, an enemy capital within reach sought before the provinces on its way; 19: a breach fought unless the
# storm is hopeless as the level judges it (``odds.storm_holds``), a storm's casualties from the cheapest factors;
# 20: corps far from the war carried back to it by sea (``ai.amphibious``), no ships bought by a power that rules
# the sea (its men go to the army), the counter rebuilt is one its infantry fits, an army at peace faces its
# neighbour when the likely enemy is out of reach; 21: a victor near the enemy capital presses on (unconditional terms
# only), a loser with its capital safe and an army left holds out, no stream of corps into a capital's area held by
# an enemy stack, winter answers no larger than the odds need
# 22: the war plan the same at every level (easy and medium judge a war as hard does), the hard level's chit the best
# answer to a medium or random enemy's; 23: an expedition ashore overseas keeps to the coast, takes weak targets by
# the sea and falls back to a port when outmatched, a corps marooned on an island carried off, no second corps landed
# on an island being taken (``ai.amphibious``); an obligation met with the rarer kinds of action first
# 24: a capital whose walls a full garrison shuts (Vienna, St. Petersburg), an enemy army a month away, gets a
# garrison that grows with the threat (``operations.guard_capitals``)
# 25 (easy): the easy level enters an enemy stack at even odds in factors (1:1), as its row of the table says
# 26: winter quarters (an army with no goal does not gather in winter, ``operations.winter_quarters``;
# stranded corps wait for a fleet in port), no expedition overseas while the enemy stands in the home nation, corps
# left overseas at peace carried home (``ai.amphibious``)
# 27: Spain's guerrillas raid enemy depots and supply chains (``ai.raids``); a corps falling back goes to a refuge
# where it is fed, a Turkish feudal corps with none stands down (``land.fall_back``); in winter a stranded corps
# marches to its fleet's port only where it is fed (``amphibious.stage``)
# 28: a fleet's path never cuts across a blockade box from sea to sea (``rules.naval.graph``: the voyages, blockades
# and pick-ups it refused are sailed), the distances between areas leave out the optional London-Lille crossing
# (``assess.distances_from``: no French army across the Channel keeps Britain's corps at home); (medium, hard) a
# capital's garrison judged again once the incursions are answered: an enemy army a month away that no answer
# marches on is the garrison's to hold, whatever corps stood near before the armies marched off; a guard or cavalry
# counter is not counted among the line corps whose loss makes a counter bought again (``economy._too_few``)
# 29: a levy larger than the first places' room is placed to the last factor (``reinforce.place_due`` bounds its
# passes by the factors due, not by the places tried: 54 infantry due stopped with 20 unplaced); (easy) a lost corps
# bought again and placed first, the manpower left turned into militia, two armies (docs/decisions.md "Every level
# rebuilds what it lost and uses its men"); a power with no land war of its own joins its allies' war on a power
# beyond its reach by land for that power's minors near it (``judge.far_minors``: Spain's on Turkey for Morocco and
# Algeria); an enemy minor's capital taken stays a war aim until the minor is conquered (13.3.1, ``strategy._aims``);
# Great Britain makes no informal peace with an enemy its allies fight on (``strategy.stands_by``); an expedition
# in an enemy great power's home nation keeps to the coast beside an ally's army too (``amphibious._with_allies``);
# a stack that must leave a blockade box sails before any combat is declared (``naval._leave_boxes``)
# 30: a landing judged against every enemy corps that can reach it within two months' march and only the friends
# beside it, the weakest such coast first; an expedition lifts a siege it cannot hold and falls back to a port, and
# beside an ally takes a weak target by the sea first (``ai.amphibious``); a lost corps rebuilt only when none is on
# the map or those there are three quarters full, no ships while fewer than two line corps stand (``ai.economy``);
# (hard) an island capital's standing garrison filled after the corps (``reinforce.candidates``);
# at peace a corps inside a city its garrison proper holds joins the camps by the border (``deploy.stage``: the
# corps rebuilt in the capital's city after a surrender march out to the frontier)
# 31: a line corps abroad, which gets none of the factors due (7.2.2), no longer keeps a lost corps from being bought
# again (``economy._too_few``); Spain's computer loads one of two AI setups in classic-1805
# (``AISpclassic-1805_0.set``, ``_1.set``): its II and III corps at Seville and Cadiz, out of the way of France's
# army, and in the second its IV corps at Madrid
# 32: in its reinforcement slot a minor's forces due to be set up go on the map (``reinforce.set_up_minors``, 7.3:
# a free state it was chosen to run, an allied minor gone to war, 6.1.3); its leaders placed with its largest
# corps and moved off a spent one (``reinforce.place_leaders``, 7.4); an Austrian insurrection corps kept in Austria
# (13.2.4); a port capital garrisoned while an enemy has fleets (``operations.open_to_landing``); no voyage to a coast
# where the landing would have to relieve a besieged or threatened port (``fleets.coast``, 10.4.5), nor a landing on
# a friendly coast an enemy stack holds (``amphibious._landing_rank``); a war's months
# toward weariness counted from the first field battle between the two (``judge.war_state``, ``judge.UNFOUGHT``)
# 33: an army beyond its own territory takes no goal the enemy's field forces could close on before friendly ones
# (``armies.EXPOSURE``), nor one from another enemy while an enemy's army stands within reach of its capital
# (``armies.threats``); a capital's guard fills its garrison from the corps inside before they march off, and the
# standing garrison goes to every national capital; a raider in an allied minor's capital is answered; a lost capital
# its corps can retake makes no surrender (``strategy.can_retake``); a subsidy leaves the ally no richer than the giver
# 34: (easy) no judgement of a goal's exposure nor of the enemy at the capital's door (``Level.exposure``,
# ``Level.threats``: the levels differ in how well they judge); (hard) against a human a chit drawn from the
# chart's equilibrium, an outflank valued by its leader's chance to arrive (``decisions.mixture``, ``chit_value``); no alliance asked of the power war is declared on; a war to be ended
# informally not turned into a surrender to make a suit elsewhere legal (``strategy.suits_allowed``);
# a victor names a cession term (B.6, C.4) only with a province or minor that qualifies (``diplomacy._settings``);
# no war declared on a power made informal peace with within six months (``judge.lately_at_peace``, 6.4.1); an army
# marches to relieve its besieged capital before any goal abroad, and the corps near a lure abroad stay with it
# (``armies.Goal.relief``, ``operations.answer_incursions``)
# 35: a garrison asked to sortie stays inside when the factor it may lose is its last (``odds.sortie_pays``);
# subsidies go to allies poorer for the size of their armies and leave them no richer per factor than the giver
# (``strategy._subsidies``: a power paid by Britain no longer pays it back); no alliance asked of a power at war with
# an ally or allied with an enemy (``strategy._alliances``: the first call would break it), nor of a computer foreseen
# to declare war on the power this month (``judge.declarations``); a defender calls no computer ally that would refuse
# (``diplomacy._would_answer``: a refusal breaks the alliance, 6.3.2)


def level(kind: PlayerKind | str) -> Level:
    """The knobs of an AI level (``ai-easy``, ``ai-medium``, ``ai-hard``)."""
    return LEVELS[PlayerKind(kind)]


__all__ = ["LEVELS", "VERSIONS", "Level", "level"]
