"""Saved and default setups (5.2.2 "Load A Saved Setup" / "Save Current Forces Setup", 000:328; 14.5, 000:2822).

A saved setup is the list of setup actions a power took, in a setup file
named ``<Ru><scenario>_<name>.set`` (``pbem.folders.setup_name``) in the
folder's ``setups/``, sealed to the player's own key (``pbem.files.write_setup``).
The default setups ship with eiapbem (``eiapbem/data/setups/<scenario>/<POWER>.json``).
Loading either replays the actions through the rules, so an illegal one is refused.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.pbem import files, folders
from eiapbem.rules import engine
from eiapbem.rules.model import Phase

from .session import Session


def _in_setup(s: Session) -> None:
    slot = s.state.slot
    if slot is None or slot.phase is not Phase.SETUP:
        raise IllegalAction("setups are saved and loaded only in the setup phase (5.2.2)")


def default_actions(scenario: str, power: str, based_on: str | None = None) -> list:
    """The shipped default setup; a scenario made with the editor uses the one of the scenario it was
    made from (``based_on``), which the rules refuse if the edits left it unplaceable (14.5)."""
    doc = None
    for name in (scenario, based_on):
        if name is None:
            continue
        ref = resources.files("eiapbem.data") / "setups" / name / f"{power}.json"
        try:
            doc = json.loads(ref.read_text())
            break
        except FileNotFoundError:
            continue
    if doc is None:
        raise BadData(f"there is no default setup for {power} in scenario {scenario}",
                      hint="set up by hand and save it with 'eiapbem setup save NAME' (14.5)")
    return [engine.action_from_obj(o, f"default setup {scenario}/{power}") for o in doc["actions"]]


def save_setup(s: Session, name: str) -> Path:
    """Write the actions taken so far in this setup slot as a setup file."""
    _in_setup(s)
    acts = s.data.taken.get(s.power, [])
    if not acts:
        raise IllegalAction(f"{s.power} has placed nothing yet; there is no setup to save")
    scenario = s.data.meta["scenario"]
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
    scenario = s.data.meta["scenario"]
    if which == "default":
        acts = default_actions(scenario, s.power, s.data.meta.get("based_on"))
    else:
        path = Path(which)
        if not path.is_file() and (s.home / "setups" / which).is_file():
            path = s.home / "setups" / which
        body = files.open_setup(folders.read_limited(path), s.me, path.name)
        if not isinstance(body, dict) or body.get("power") != s.power or body.get("scenario") != scenario:
            raise IllegalAction(f"{path.name} is a setup for {body.get('power')} in {body.get('scenario')}, not {s.power} in {scenario}")
        acts = [engine.action_from_obj(o, path.name) for o in body["actions"]]
    s.act_many(acts)
    return len(acts)
