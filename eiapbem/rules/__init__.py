"""The deterministic rules core of eiapbem.

Pure functions of their arguments: no I/O, no clock, no global random, no
floats, no set or hash-order dependence.  Dice come only from the labelled dice
handed in (``eiapbem.core.dice``).  Section numbers in comments refer to the
manual (``shared/seeds/000_…``).
"""
