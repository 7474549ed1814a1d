"""A small deterministic game for the file-layer tests: fixed keys, injected randomness."""

from __future__ import annotations

from eiapbem.pbem import crypto, envelope, files, keys
from eiapbem.pbem.chain import Step

ROLES = envelope.POWERS + ("host",)
GID = bytes(range(16))


def identities(seed: bytes = b"test-game", dice_n: int = 32) -> dict[str, keys.Identity]:
    rng = crypto.KeystreamRng(seed + b"/keys")
    return {r: keys.Identity.generate(r, rng, dice_n=dice_n) for r in ROLES}


class Game:
    """Seven powers and a host, each with its own chain record, all started from one gamestart."""

    def __init__(self, seed: bytes = b"test-game", game: str = "Test", gid: bytes = GID) -> None:
        self.rng = crypto.KeystreamRng(seed + b"/files")
        self.ids = identities(seed)
        self.roster = {r: i.public() for r, i in self.ids.items()}
        self.gamestart, host_chain = files.create_gamestart(
            self.ids["host"], self.roster, game, gid, {"scenario": "1805"}, self.rng
        )
        self.chains = {"host": host_chain}
        for r in envelope.POWERS:
            self.chains[r], _ = files.open_gamestart(self.gamestart.data, [self.ids[r]])

    def turn(self, author: str, slot: str, body=None, step: Step | None = None, reloads: int = 0):
        step = step or Step.one(slot, author)
        sealed, self.chains[author] = files.write_turn(
            self.chains[author], self.ids[author], step, slot, body if body is not None else {"slot": slot}, reloads=reloads, rng=self.rng
        )
        return sealed

    def load(self, role: str, sealed_or_bytes, step: Step, name: str = "the file"):
        data = getattr(sealed_or_bytes, "data", sealed_or_bytes)
        loaded = files.load_file(self.chains[role], data, [self.ids[role]], step, name)
        self.chains[role] = loaded.chain
        return loaded
