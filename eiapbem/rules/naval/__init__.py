"""Naval rules (sections 8 and 9): interception (8.5), combat and losses (9.2),
victory and political points (9.3).  Pure functions over plain values; the
numbers come from ``eiapbem.rules.tables.naval``.
"""
