"""Identities at rest under the player's password (4.1.1 "PBEM-Hotseat Passwords", 000:38)."""

import pytest

from eiapbem.pbem import crypto, envelope, keys
from eiapbem.pbem.errors import BadFormat, BadHeader, BadSignature, WrongKind, WrongPassword

SMALL = dict(logn=10, r=1, p=1)  # fast for tests; real use: crypto.STRONG_LOGN (17), r 8, p 1


def make(role="FR"):
    rng = crypto.KeystreamRng(b"keys-test")
    return keys.Identity.generate(role, rng, dice_n=16), rng


def test_identity_file_opens_with_its_password_only():
    ident, rng = make()
    data = keys.seal_identity(ident, "Austerlitz 1805", "Test", rng=rng, **SMALL)
    assert keys.open_identity(data, "Austerlitz 1805") == ident
    with pytest.raises(WrongPassword, match="password does not open"):
        keys.open_identity(data, "Austerlitz 1806")
    with pytest.raises(WrongPassword):
        keys.open_identity(data, "")


def test_kdf_parameters_are_stored_in_the_file_and_bounded():
    ident, rng = make()
    data = keys.seal_identity(ident, "pw", "Test", rng=rng, **SMALL)
    st = envelope.parse(data).header.to[0]
    assert (st.type, st.logn, st.r, st.p) == ("scrypt", 10, 1, 1)
    # A writer asking for more than a reader accepts (logn 19) is refused on writing.
    with pytest.raises(BadHeader, match="logn"):
        keys.seal_identity(ident, "pw", "Test", rng=rng, logn=19, r=1, p=1)


def test_default_kdf_is_strong():
    assert (crypto.STRONG_LOGN, crypto.STRONG_R, crypto.STRONG_P) == (17, 8, 1)


def test_the_public_half_is_self_signed():
    ident, rng = make()
    data = bytearray(keys.seal_identity(ident, "pw", "Test", rng=rng, **SMALL))
    data[-1] ^= 1
    with pytest.raises(BadSignature):
        keys.open_identity(bytes(data), "pw")


def test_other_kinds_are_not_key_files():
    from pbem_game import Game

    g = Game()
    with pytest.raises(WrongKind):
        keys.open_identity(g.gamestart.data, "pw")
    with pytest.raises(BadFormat):
        keys.open_identity(b"not a key", "pw")


def test_dice_chain_links_hash_back_to_the_commitment():
    ident, _ = make()
    c = ident.public().dice
    assert ident.link(0) == c
    for i in range(1, ident.dice_n + 1):
        assert crypto.chain_step(ident.link(i)) == ident.link(i - 1)
    with pytest.raises(ValueError):
        ident.link(ident.dice_n + 1)
