"""End to end: eight home folders exchange real files through commout/ and commin/ (4.2.2-4.2.8)."""

import email
import shutil
from email import policy

import pytest

from eiapbem.pbem import atomic, crypto, dice, envelope, files, folders, keys, savegame
from eiapbem.pbem.chain import Step
from eiapbem.pbem.email import Person, subject_for, write_draft
from eiapbem.pbem.errors import AlreadyLoaded, Obsolete
from eiapbem.core import canonical

pytestmark = pytest.mark.slow

GAME = "Austerlitz"
ROLES = envelope.POWERS + ("host",)
PEOPLE = {r: Person(f"Player {r}", f"{r.lower()}@example.org") for r in ROLES}


class Client:
    def __init__(self, home, role, ident):
        self.f = folders.GameFolders(home).ensure()
        self.role = role
        self.me = ident
        self.rng = crypto.KeystreamRng(b"client/" + role.encode())

    def send(self, name, sealed, subject_what):
        path = self.f.put(self.f.commout, name, sealed.data)
        others = [PEOPLE[r] for r in ROLES if r != self.role]
        write_draft(path, PEOPLE[self.role], others, subject_for(GAME, subject_what))
        return path

    def receive(self, path):
        shutil.copy(path, self.f.commin / path.name)
        return self.f.commin / path.name

    def save(self):
        return savegame.load(self.f, GAME, self.me)

    def load_turn(self, path, step):
        contents = self.save()
        data = folders.read_limited(path)
        loaded = files.load_file(contents.chain, data, [self.me], step, path.name)
        if "dice" in loaded.body:
            dice.check_rolls(loaded.seed, loaded.body["dice"], path.name)
        savegame.store(self.f, GAME, files.SaveContents(loaded.chain, contents.game, contents.starts), self.me, self.rng)
        return loaded


def test_a_month_of_files_between_eight_folders(tmp_path):
    # 4.2.4 (000:158): each folder keeps its save and plays on from it (begin_slot opens it again); 4.2.6 (000:166):
    # the turn files come from commin and are loaded in chain order.
    rng = crypto.KeystreamRng(b"e2e")
    ids = {r: keys.Identity.generate(r, rng, dice_n=16) for r in ROLES}
    clients = {r: Client(tmp_path / r, r, None) for r in ROLES}
    # The game's creator seals each identity under that player's password (4.2.10 passwords).
    for r, c in clients.items():
        key = keys.seal_identity(ids[r], f"secret of {r}", GAME, logn=10, r=1, p=1, rng=rng)
        (c.f.home / folders.identity_name(GAME, r)).write_bytes(key)
        c.me = keys.open_identity((c.f.home / folders.identity_name(GAME, r)).read_bytes(), f"secret of {r}")
    roster = {r: i.public() for r, i in ids.items()}

    # The host writes the gamestart to commout with an email draft (000:106) ...
    host = clients["host"]
    gs, host_chain = files.create_gamestart(host.me, roster, GAME, rng(16), {"scenario": "1805"}, rng)
    gs_path = host.send(folders.gamestart_name(GAME), gs, "gamestart")
    draft = email.message_from_bytes((host.f.commout / (gs_path.name + ".eml")).read_bytes(), policy=policy.default)
    assert draft["Subject"] == "EiA Austerlitz: gamestart" and "fr@example.org" in draft["To"]
    savegame.store(host.f, GAME, files.SaveContents(host_chain, {"turn": 0}, {}), host.me, rng)
    # ... and every client loads it from commin (000:130) and keeps a save.
    for r in envelope.POWERS:
        c = clients[r]
        chain, body = files.open_gamestart(folders.read_limited(c.receive(gs_path)), [c.me])
        assert body == {"scenario": "1805"}
        savegame.store(c.f, GAME, files.SaveContents(chain, {"turn": 0}, {}), c.me, c.rng)

    # Great Britain plays its naval slot; it restarted once, and everyone sees it (000:176).
    gb = clients["GB"]
    slot = "1805-05/naval/GB"
    step = Step.one(slot, "GB")
    savegame.begin_slot(gb.f, GAME, gb.me, slot, gb.rng)
    contents, reloads = savegame.begin_slot(gb.f, GAME, gb.me, slot, gb.rng)
    assert reloads == 1
    d = dice.dice_for_next(contents.chain, gb.me)
    d.d6("naval/interception/north-sea")
    t, gb_chain = files.write_turn(contents.chain, gb.me, step, slot, {"dice": d.to_obj()}, reloads=reloads, rng=gb.rng)
    t_path = gb.send(folders.turn_name(GAME, slot), t, slot)
    assert t_path.name == "Austerlitz_1805-05_naval_GB.pbm"
    savegame.store(gb.f, GAME, files.SaveContents(gb_chain, contents.game, contents.starts), gb.me, gb.rng)
    for r in ROLES:
        if r != "GB":
            assert clients[r].load_turn(clients[r].receive(t_path), step).header.reloads == 1
    with pytest.raises(AlreadyLoaded):
        clients["FR"].load_turn(clients["FR"].f.commin / t_path.name, step)

    # Diplomacy: seven files made at once, loaded in different orders; every head agrees (6.0).
    powers = list(envelope.POWERS)
    dstep = Step.together((f"1805-06/diplomacy/{p}", [p]) for p in powers)
    paths = {}
    for p in powers:
        c = clients[p]
        cont = c.save()
        sealed, chain = files.write_turn(cont.chain, c.me, dstep, f"1805-06/diplomacy/{p}", {"orders": p}, rng=c.rng)
        savegame.store(c.f, GAME, files.SaveContents(chain, cont.game, cont.starts), c.me, c.rng)
        paths[p] = c.send(folders.turn_name(GAME, f"1805-06/diplomacy/{p}"), sealed, f"1805-06 diplomacy {p}")
    for i, r in enumerate(ROLES):
        order = powers[i % 7 :] + powers[: i % 7]
        for p in order:
            if p != r:
                clients[r].load_turn(clients[r].receive(paths[p]), dstep)
    heads = {r: clients[r].save().chain.head for r in ROLES}
    assert len(set(heads.values())) == 1

    # The host makes backups (000:214-226); after loading them the old GB file is obsolete.
    state_hash = canonical.digest({"turn": 1})
    backups = files.write_backups(host.save().chain, host.me, state_hash, {r: {"turn": 1} for r in ROLES}, rng)
    for r in ROLES:
        c = clients[r]
        name = folders.backup_name(GAME, r)
        host.f.put(host.f.save, name, backups[r].data)
        host.f.put(host.f.save, name + ".dat", backups[r].dat)
        if c is not host:
            shutil.copy(host.f.save / name, c.f.save / name)
            shutil.copy(host.f.save / (name + ".dat"), c.f.save / (name + ".dat"))
        sav, dat = atomic.read_save_pair(c.f.save / name)
        chain, body = files.open_backup(sav, dat, c.me, c.save().chain, name)
        savegame.store(c.f, GAME, files.SaveContents(chain, body, {}), c.me, c.rng)
    with pytest.raises(Obsolete):
        clients["FR"].load_turn(clients["FR"].f.commin / t_path.name, step)
    assert len({clients[r].save().chain.head for r in ROLES}) == 1
