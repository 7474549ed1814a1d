"""Saved and default setups (5.2.2 "Load A Saved Setup" / "Save Current Forces Setup", 000:328; 14.5, 000:2822).

A saved setup is the list of setup actions a power took, in a setup file
named ``<Ru><scenario>_<name>.set`` (``pbem.folders.setup_name``) in the
folder's ``setups/``, sealed to the player's own key (``pbem.files.write_setup``).
The default setups ship with eiapbem (``eiapbem/data/setups/<scenario>/<POWER>.json``).
Loading either replays the actions through the rules, so an illegal one is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from eiapbem.core.errors import IllegalAction
from eiapbem.pbem import bodies, files, folders
from eiapbem.rules import engine
from eiapbem.rules.model import Phase

from .autoplay import default_actions

if TYPE_CHECKING:  # only for the annotations: the session does not import this module (no circle)
    from .session import Session

__all__ = ["default_actions", "load_setup", "save_setup"]


def _in_setup(s: Session) -> None:
    slot = s.state.slot
    if slot is None or slot.phase is not Phase.SETUP:
        raise IllegalAction("setups are saved and loaded only in the setup phase (5.2.2)")


def save_setup(s: Session, name: str) -> Path:
    """Write the actions taken so far in this setup slot as a setup file."""
    _in_setup(s)
    acts = s.data.taken.get(s.power, [])
    if not acts:
        raise IllegalAction(f"{s.power} has placed nothing yet; there is no setup to save")
    scenario = s.data.meta.scenario
    body = {"scenario": scenario, "power": s.power, "actions": acts}
    sealed = files.write_setup(s.contents.chain, s.me, body)
    folder = s.home / "setups"
    return s.folders.put(folder, folders.setup_name(s.power, scenario, name), sealed.data)


def load_setup(s: Session, which: str) -> int:
    """Load ``default`` or a setup file; every action is checked by the rules.  Returns the count."""
    _in_setup(s)
    if s.data.taken.get(s.power):
        raise IllegalAction(f"{s.power} has already placed forces in this slot; a setup is loaded onto an empty map",
                            hint="'eiapbem restart' takes back what was placed")
    scenario = s.data.meta.scenario
    if which == "default":
        acts = default_actions(scenario, s.power, s.data.meta.based_on or None)
    else:
        path = Path(which)
        if not path.is_file() and (s.home / "setups" / which).is_file():
            path = s.home / "setups" / which
        body = bodies.decode(bodies.SetupBody, files.open_setup(folders.read_limited(path), s.me, path.name), path.name,
                             "a setup")
        if body.power != s.power or body.scenario != scenario:
            raise IllegalAction(f"{path.name} is a setup for {body.power} in {body.scenario}, not {s.power} in {scenario}")
        acts = [engine.action_from_obj(o, path.name) for o in body.actions]
    s.act_many(acts)
    return len(acts)
