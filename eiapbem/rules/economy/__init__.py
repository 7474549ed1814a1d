"""The economic phase (12.0-12.9, 000:2026-2350): one module per step of the manual.

``phase`` holds the players' orders (actions of ``Phase.ECONOMIC``), the
``resolve`` hook that runs steps A-J for every power, and ``summary``, the
line-by-line ledger of a quarter.
"""
