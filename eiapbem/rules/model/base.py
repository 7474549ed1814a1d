"""The typed value machinery now lives in the bottom layer, ``eiapbem.core.record``; this module re-exports it."""

from eiapbem.core.record import (  # noqa: F401 - the model's names
    TRANSIENT,
    FrozenMap,
    InvalidValue,
    OneOf,
    Pattern,
    Plain,
    Range,
    Record,
    SortedSet,
    Spec,
    field_specs,
    first_difference,
    spec_for,
    transient,
)
