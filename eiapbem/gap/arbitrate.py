"""GAP arbitration (4.2.10-4.2.12): seven bids in, one power for each player out.

Powers are awarded in the order Great Britain, France, Russia, Austria,
Prussia, Spain, Turkey (4.2.10), each to the highest bidder among the players
not yet awarded a power; the winner pays its bid in victory points (the bid is
added to its victory level, 12.1.1).  Ties are broken by a non-repeating
random number event: the tied players are put in a random order (a
Fisher-Yates shuffle on labelled dice) and the first one wins.  The dice seed
is the SHA-256 of the published part of the bids (names, addresses, bids and
requested wars, never the passwords), so the arbitrator cannot steer it and
anyone holding the results can re-check every tie.

This module is pure: no files, no crypto (``eiapbem.gap.files`` does those).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from eiapbem.core.errors import BadFile
from eiapbem.pbem.envelope import GAME_RE, BIDDER_NAME_RE, EMAIL_RE, MAX_EMAIL
from eiapbem.core import canonical
from eiapbem.core.dice import Dice

from eiapbem.core.powers import POWER_NAMES, POWERS  # noqa: E402
#: 4.2.10: the order in which the powers are compared.
AWARD_ORDER = ("GB", "FR", "RU", "AU", "PR", "SP", "TU")
#: 4.2.10: bids are capped at 30 victory points.
MAX_BID = 30
PLAYERS = 7
#: A game password is 1 to 256 characters (docs/file-format.md 10.2).
MAX_PASSWORD = 256


class BadBid(BadFile):
    """A bid (or set of bids) the arbitrator must refuse."""


@dataclass(frozen=True)
class Bid:
    """One player's bid for one game (4.2.10)."""

    game: str
    name: str
    email: str
    bids: tuple[tuple[str, int], ...]  # (power, victory points), in POWERS order
    wars: tuple[tuple[str, tuple[str, ...]], ...]  # (aggressor power, targets), in POWERS order
    #: The player's game password; ``None`` in a bid rebuilt from the published
    #: results text, which never holds passwords.
    password: str | None = field(repr=False)

    @classmethod
    def make(
        cls, game: str, name: str, email: str, bids: dict[str, int], wars: dict[str, list[str]] | None, password: str | None
    ) -> "Bid":
        wars = wars or {}
        unknown = sorted(str(k) for k in set(bids) | set(wars) if k not in POWERS)
        if unknown:
            raise BadBid(f"the bid of {email} names unknown power {unknown[0]!r}; the powers are {' '.join(POWERS)}")
        bid = cls(
            game=game,
            name=name,
            email=email,
            bids=tuple((p, bids.get(p, 0)) for p in POWERS),
            wars=tuple((p, tuple(sorted(set(wars.get(p, ()))))) for p in POWERS if wars.get(p)),
            password=password,
        )
        bid.verify()
        return bid

    def bid_for(self, power: str) -> int:
        return dict(self.bids)[power]

    def wars_for(self, power: str) -> tuple[str, ...]:
        return dict(self.wars).get(power, ())

    def verify(self) -> None:
        """Raise ``BadBid`` with one sentence if the bid breaks a rule of 4.2.10."""
        if not GAME_RE.match(self.game):
            raise BadBid(f"the game name {self.game!r} is not valid; use 1 to 40 letters, digits, '-' and '_'")
        if not BIDDER_NAME_RE.match(self.name):
            raise BadBid(
                f"the player name {self.name!r} is not valid; use 1 to 40 letters, digits, spaces, '.', \"'\", '-' and '_'"
            )
        if not EMAIL_RE.match(self.email) or not 3 <= len(self.email) <= MAX_EMAIL:
            raise BadBid(f"{self.email!r} is not an email address (one '@', no spaces, at most {MAX_EMAIL} characters)")
        if [p for p, _ in self.bids] != list(POWERS):
            raise BadBid(f"the bid of {self.email} must give one bid for each of the seven powers")
        for p, v in self.bids:
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_BID:
                raise BadBid(
                    f"the bid of {self.email} for {POWER_NAMES[p]} is {v!r}; bids are whole numbers from 0 to {MAX_BID} (4.2.10)"
                )
        for aggressor, targets in self.wars:
            if aggressor not in POWERS:
                raise BadBid(f"the bid of {self.email} names unknown power {aggressor!r} as an aggressor")
            for t in targets:
                if t not in POWERS or t == aggressor:
                    raise BadBid(f"the bid of {self.email}: {POWER_NAMES[aggressor]} cannot declare war on {t!r}")
        if self.password is not None and not (isinstance(self.password, str) and 1 <= len(self.password) <= MAX_PASSWORD):
            raise BadBid(f"the bid of {self.email} must carry a game password of 1 to {MAX_PASSWORD} characters")

    def public_obj(self) -> dict:
        """What the results publish of this bid (everything but the password)."""
        return {
            "game": self.game,
            "name": self.name,
            "email": self.email,
            "bids": {p: v for p, v in self.bids},
            "wars": {p: list(t) for p, t in self.wars},
        }

    def to_obj(self) -> dict:
        return {**self.public_obj(), "password": self.password}

    @classmethod
    def from_obj(cls, obj: dict) -> "Bid":
        """Strictly read a bid body (docs/file-format.md 10.2); a password is required."""
        if not isinstance(obj, dict) or set(obj) != {"game", "name", "email", "bids", "wars", "password"}:
            raise BadBid("the bid's contents are not a bid")
        if not all(isinstance(obj[k], str) for k in ("game", "name", "email", "password")):
            raise BadBid("the bid's contents are not a bid")
        bids, wars = obj["bids"], obj["wars"]
        if not isinstance(bids, dict) or set(bids) != set(POWERS):
            raise BadBid(f"the bid of {obj['email']} must give one bid for each of the seven powers")
        if not isinstance(wars, dict) or not all(isinstance(v, list) and v and all(isinstance(x, str) for x in v) for v in wars.values()):
            raise BadBid(f"the bid of {obj['email']} lists its pre-existing wars in an unknown form")
        bid = cls.make(obj["game"], obj["name"], obj["email"], dict(bids), {k: list(v) for k, v in wars.items()}, obj["password"])
        if bid.to_obj() != obj:
            raise BadBid(f"the bid of {obj['email']} lists a pre-existing war twice, unsorted or for an unknown power")
        return bid


@dataclass(frozen=True)
class Award:
    power: str
    email: str
    name: str
    cost: int
    wars: tuple[str, ...]
    tied: tuple[str, ...]  # the emails that tied at the top, in the drawn order; () without a tie


@dataclass(frozen=True)
class Result:
    game: str
    seed: bytes
    gb_fr_war: bool
    awards: tuple[Award, ...]  # in AWARD_ORDER
    bids: tuple[Bid, ...]  # sorted by email

    def award(self, power: str) -> Award:
        return next(a for a in self.awards if a.power == power)


def seed_of(bids: list[Bid] | tuple[Bid, ...]) -> bytes:
    """SHA-256 of the published part of the bids, in address order."""
    ordered = sorted(bids, key=lambda b: b.email.lower())
    return hashlib.sha256(b"eiapbem/v1/gap-seed\x00" + canonical.encode([b.public_obj() for b in ordered])).digest()


def check_set(bids: list[Bid] | tuple[Bid, ...]) -> None:
    """Refuse a set of bids that cannot be arbitrated."""
    if len(bids) != PLAYERS:
        raise BadBid(f"arbitration needs exactly {PLAYERS} bids, one per player; {len(bids)} were given")
    games = sorted({b.game for b in bids})
    if len(games) != 1:
        raise BadBid(f"the bids are for different games ({', '.join(games)}); give the seven bids of one game")
    seen: dict[str, str] = {}
    for b in bids:
        b.verify()
        key = b.email.lower()
        if key in seen:
            raise BadBid(f"two bids come from the same address {b.email}; keep only the player's latest bid")
        seen[key] = b.name


def _shuffle(dice: Dice, power: str, emails: list[str]) -> list[str]:
    """A random order of ``emails`` drawn without repeats (Fisher-Yates)."""
    order = list(emails)
    for i in range(len(order) - 1, 0, -1):
        j = dice.one_to(i + 1, f"gap/{power}/tie/{i}") - 1
        order[i], order[j] = order[j], order[i]
    return order


def arbitrate(bids: list[Bid] | tuple[Bid, ...], *, gb_fr_war: bool = False) -> Result:
    """Award the seven powers (4.2.10)."""
    check_set(bids)
    ordered = tuple(sorted(bids, key=lambda b: b.email.lower()))
    seed = seed_of(ordered)
    dice = Dice(seed)
    free = {b.email: b for b in ordered}
    awards = []
    for power in AWARD_ORDER:
        top = max(b.bid_for(power) for b in free.values())
        tied = sorted((e for e, b in free.items() if b.bid_for(power) == top), key=str.lower)
        drawn = _shuffle(dice, power, tied) if len(tied) > 1 else tied
        winner = free.pop(drawn[0])
        awards.append(
            Award(
                power=power,
                email=winner.email,
                name=winner.name,
                cost=top,
                wars=winner.wars_for(power),
                tied=tuple(drawn) if len(tied) > 1 else (),
            )
        )
    return Result(game=ordered[0].game, seed=seed, gb_fr_war=gb_fr_war, awards=tuple(awards), bids=ordered)


def pre_existing_wars(result: Result) -> list[tuple[str, str]]:
    """(aggressor, target) pairs that start the game, sorted; with the GB-FR option, GB-FR is added."""
    pairs = {(a.power, t) for a in result.awards for t in a.wars}
    if result.gb_fr_war and ("GB", "FR") not in pairs and ("FR", "GB") not in pairs:
        pairs.add(("FR", "GB"))
    return sorted(pairs)


def render_text(result: Result) -> str:
    """The results text for the players (4.2.10): winners, then every bid, aggressors listed vertically."""
    lines = [
        f"GAP results for game {result.game}",
        f"Tie-break seed (SHA-256 of the published bids): {result.seed.hex()}",
        f"Great Britain and France start at war: {'yes' if result.gb_fr_war else 'no'}",
        "",
        "Powers awarded (in the order compared: Great Britain, France, Russia, Austria, Prussia, Spain, Turkey)",
        "",
    ]
    width = max(len(POWER_NAMES[p]) for p in POWERS)
    for a in result.awards:
        wars = ", ".join(POWER_NAMES[t] for t in a.wars) or "none"
        lines.append(f"{POWER_NAMES[a.power].ljust(width)}  won by {a.name} <{a.email}> for {a.cost} victory points")
        lines.append(f"{''.ljust(width)}  pre-existing wars declared: {wars}")
        if a.tied:
            lines.append(f"{''.ljust(width)}  tie at {a.cost} broken by the drawn order: {', '.join(a.tied)}")
    lines += ["", "Bids (victory points)", ""]
    codes = list(POWERS)
    lines.append("player".ljust(32) + "".join(c.rjust(5) for c in codes))
    for b in result.bids:
        lines.append(f"{b.name} <{b.email}>"[:31].ljust(32) + "".join(str(b.bid_for(c)).rjust(5) for c in codes))
    lines += ["", "Requested pre-existing wars (rows: the aggressor, columns: the target; X = war declared)", ""]
    for b in result.bids:
        lines.append(f"{b.name} <{b.email}>")
        lines.append("    " + "".ljust(4) + "".join(c.rjust(4) for c in codes))
        for agg in codes:
            targets = b.wars_for(agg)
            lines.append("    " + agg.ljust(4) + "".join(("X" if c in targets else ("-" if c == agg else ".")).rjust(4) for c in codes))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _case_bids(inp: dict) -> tuple[list[Bid], bool]:
    """The bids of a rules case's ``input`` (see ``case_arbitrate``)."""
    game = str(inp.get("game", "Case"))
    bids = []
    for row in inp["players"]:
        email = str(row["email"])
        wars: dict[str, list[str]] = {}
        for w in row.get("wars", []):
            agg, _, target = str(w).partition(":")
            wars.setdefault(agg, []).append(target)
        values = row.get("bids", {})
        if isinstance(values, list):
            values = dict(zip(POWERS, values))
        bids.append(Bid.make(game, str(row.get("name", email.split("@")[0])), email, dict(values), wars, "case"))
    return bids, bool(inp.get("gb_fr_war", False))


def case_arbitrate(inp: dict, _dice: Dice) -> dict:
    """Rules-case procedure ``gap.arbitrate`` (4.2.10).

    ``input``: ``players`` (an array of tables: ``email``, optional ``name``,
    ``bids`` as a table ``{GB = 10, ...}`` or an array in the order
    ``AU FR GB PR RU SP TU``, optional ``wars`` as ``["FR:AU", ...]``),
    optional ``game`` and ``gb_fr_war``.  The tie-break dice come from the
    bids' own seed, never from the case.  Result: ``winners`` and ``costs`` per
    power, ``ties`` (power -> the tied addresses, sorted), ``drawn`` (power ->
    the drawn order), ``wars`` (``"FR:AU"`` items, sorted), ``seed`` (hex);
    or ``refused = true`` and ``reason`` when the bids must be refused.
    """
    try:
        bids, gb_fr_war = _case_bids(inp)
        r = arbitrate(bids, gb_fr_war=gb_fr_war)
    except BadBid as err:
        return {"refused": True, "reason": str(err)}
    return {
        "refused": False,
        "winners": {a.power: a.email for a in r.awards},
        "costs": {a.power: a.cost for a in r.awards},
        "ties": {a.power: sorted(a.tied, key=str.lower) for a in r.awards if a.tied},
        "drawn": {a.power: list(a.tied) for a in r.awards if a.tied},
        "wars": [f"{a}:{t}" for a, t in pre_existing_wars(r)],
        "seed": r.seed.hex(),
    }
