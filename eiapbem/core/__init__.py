"""The bottom layer every other layer may import: errors, canonical encoding, power names, dice.

Nothing here imports from the rest of the package (DESIGN.md 7).
"""
