"""Diplomacy rules (section 6).  Pure functions over plain values; the
numbers come from ``eiapbem.rules.tables.diplomacy``.
"""
