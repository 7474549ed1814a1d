"""The typed value machinery now lives in the bottom layer (``eiapbem.core.record`` and ``eiapbem.core.spec``); this module re-exports it."""

from eiapbem.core.record import (  # noqa: F401 - the model's names
    TRANSIENT,
    FrozenMap,
    InvalidValue,
    Record,
    field_specs,
    first_difference,
    spec_for,
    transient,
)
from eiapbem.core.spec import OneOf, Pattern, Plain, Range, SortedSet, Spec  # noqa: F401 - the model's names
