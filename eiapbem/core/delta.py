"""The difference between two canonical values, and its application (docs/file-format.md 7.4).

A battle question shows the defender the state of the attacker's slot at the
moment the defender's question arose.  Both sides hold the state at the start
of the slot, so the question carries only what changed since: a *delta*, a
list of operations on the canonical value (``core.canonical``: maps with
``str`` keys, arrays, scalars), in the order of their paths:

- ``[path, value]``: the entry at ``path`` (a list of map keys) becomes ``value``;
- ``[path]``: the entry at ``path`` is removed;
- ``[path, "+", items]``: the array at ``path`` gets ``items`` at its end (a log that grew).

Only maps are entered; an array that grew at its end gives its new items, any
other array or scalar that changed is given whole.
``patch`` checks every operation (untrusted input): a path that does not lead
through maps, a removal of a missing key or operations out of order is a
``BadEncoding``.  The receiver then checks the result's hash against the one
the question names, so a delta can only rebuild the state it was made from.
"""

from __future__ import annotations

from typing import Any

from .errors import BadEncoding

#: A delta may name at most this many operations, each path at most this deep.
MAX_OPS = 100_000
MAX_DEPTH = 32


def diff(old: Any, new: Any) -> list[list[Any]]:
    """The operations that turn ``old`` into ``new`` (both canonical values), in key order."""
    out: list[list[Any]] = []
    _diff(old, new, [], out)
    return out


def _diff(old: Any, new: Any, path: list[str], out: list[list[Any]]) -> None:
    if type(old) is dict and type(new) is dict and len(path) < MAX_DEPTH:
        for key in sorted(set(old) | set(new), key=lambda k: k.encode()):
            if key not in new:
                out.append([path + [key]])
            elif key not in old:
                out.append([path + [key], new[key]])
            elif old[key] != new[key] or type(old[key]) is not type(new[key]):
                _diff(old[key], new[key], path + [key], out)
        return
    if type(old) is list and type(new) is list and len(new) > len(old) and new[:len(old)] == old:
        out.append([list(path), "+", new[len(old):]])
        return
    out.append([list(path), new])


def patch(value: Any, ops: Any, name: str = "the delta") -> Any:
    """``value`` with the operations ``ops`` applied (a new value; ``value`` is not changed)."""
    if not isinstance(ops, list) or len(ops) > MAX_OPS:
        raise BadEncoding(f"{name} is not a list of changes")
    root: Any = [_copy_top(value)]
    copied: set[tuple[str, ...]] = {()}
    last: list[bytes] | None = None
    for i, op in enumerate(ops):
        if not (isinstance(op, list) and len(op) in (1, 2, 3) and isinstance(op[0], list) and len(op[0]) <= MAX_DEPTH
                and all(isinstance(k, str) for k in op[0]) and (len(op) < 3 or (op[1] == "+" and isinstance(op[2], list)))):
            raise BadEncoding(f"{name}: change {i + 1} is not a path and a value")
        path: list[str] = op[0]
        order = [k.encode() for k in path]
        if last is not None and order <= last:
            raise BadEncoding(f"{name}: change {i + 1} is out of order")
        last = order
        if not path:
            if len(op) != 2 or i:
                raise BadEncoding(f"{name}: change {i + 1} replaces the whole value among other changes")
            root[0] = op[1]
            continue
        parent = root
        key: Any = 0
        for depth, k in enumerate(path):
            node = parent[key]
            if type(node) is not dict:
                raise BadEncoding(f"{name}: change {i + 1} goes through something that is not a map")
            prefix = tuple(path[:depth])
            if prefix not in copied:
                node = dict(node)
                parent[key] = node
                copied.add(prefix)
            parent, key = node, k
        if len(op) == 1:
            if key not in parent:
                raise BadEncoding(f"{name}: change {i + 1} removes an entry that is not there")
            del parent[key]
        elif len(op) == 3:
            if key not in parent or type(parent[key]) is not list:
                raise BadEncoding(f"{name}: change {i + 1} adds to something that is not an array")
            parent[key] = parent[key] + op[2]
        else:
            parent[key] = op[1]
    return root[0]


def _copy_top(value: Any) -> Any:
    return dict(value) if type(value) is dict else value
