"""Everything on disk: sealed files, keys, the chain of files, dice seeds, saves, folders, email.

Module map (docs/file-format.md is the specification):

- ``envelope``: the byte layout and the clear header; no cryptography.
- ``crypto``: sealing, signatures, key wrapping, file hashes, dice-seed derivations.
- ``keys``: identities (signing key, encryption key, dice chain) and password-sealed key files.
- ``chain``: what a client has accepted; ``Step`` is what the game loop says is due; ``Battle``.
- ``dice``: file seeds, roll checks, the two-human battle nonce exchange.
- ``files``: one function per file kind for the game loop (write_*/load_*/open_*).
- ``savegame``, ``atomic``: the player's save on disk, written atomically.
- ``folders``, ``email``: game folders, file names, email drafts.
- ``sync``: state-hash checks and the first differing path.
- ``errors``: the ``BadFile`` subclasses.
"""
