"""The committed file-layer test vectors (tests/vectors/): rebuilt byte for byte, each with its outcome."""

import importlib.util
import json
import sys

import pytest

from eiapbem.pbem import dice, errors, files, keys
from eiapbem.pbem.chain import Step
from paths import ROOT

VEC = ROOT / "tests" / "vectors"
INDEX = json.loads((VEC / "vectors.json").read_text())


def _generator():
    spec = importlib.util.spec_from_file_location("vector_generator", VEC / "generate.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["vector_generator"] = mod
    spec.loader.exec_module(mod)
    return mod


GEN = _generator()


def test_generator_rebuilds_every_committed_vector_byte_for_byte():
    built = GEN.build()
    assert [v.meta() for v in built] == INDEX["vectors"]
    for v in built:
        assert (VEC / v.name).read_bytes() == v.data, v.name
        if v.dat is not None:
            assert (VEC / (v.name + ".dat")).read_bytes() == v.dat


def _open(meta, chain, me):
    data = (VEC / meta["name"]).read_bytes()
    kind = meta["open"]
    if kind == "gamestart":
        return files.open_gamestart(data, [me], meta["name"])[0]
    if kind == "identity":
        keys.open_identity(data, INDEX["password"], meta["name"])
        return chain
    if kind == "backup":
        dat = (VEC / (meta["name"] + ".dat")).read_bytes()
        return files.open_backup(data, dat, me, chain, meta["name"])[0]
    step = Step.one(meta["step"][0], *meta["step"][1])
    loaded = files.load_file(chain, data, [me], step, meta["name"])
    if meta["check_rolls"]:
        dice.check_rolls(loaded.seed, loaded.body["dice"], meta["name"])
    return loaded.chain


BY_NAME = {m["name"]: m for m in INDEX["vectors"]}


@pytest.mark.parametrize("meta", INDEX["vectors"], ids=[m["name"] for m in INDEX["vectors"]])
def test_vector_has_its_expected_outcome(meta):
    me = GEN.reader()
    chain = None
    for prior in meta["after"]:
        chain = _open(BY_NAME[prior], chain, me)
    if meta["expect"] == "ok":
        _open(meta, chain, me)
    else:
        cls = getattr(errors, meta["expect"], None) or getattr(__import__("eiapbem.core.errors", fromlist=["x"]), meta["expect"])
        with pytest.raises(cls) as err:
            _open(meta, chain, me)
        assert type(err.value).__name__ == meta["expect"]
        assert str(err.value).startswith(meta["name"]) or meta["name"] in str(err.value)


def test_every_refusal_kind_has_a_vector():
    expected = {m["expect"] for m in INDEX["vectors"]}
    for name in ("BadFormat", "BadHeader", "BadEncoding", "BadSignature", "WrongGame", "Missing", "OwnFile",
                 "AlreadyLoaded", "Fork", "AuthorNotAllowed", "BadDice", "NotForYou", "BadEncryption", "Obsolete"):
        assert name in expected, name
