"""``eiapbem rules``: run the rules test cases."""

from __future__ import annotations

import json
from typing import Any

import click

from eiapbem.data.context import rules_context
from eiapbem.core.errors import BadData, EiaError
from eiapbem.rulecases.files import find_cases, load_case
from eiapbem.rulecases.harness import run_case

from .common import echo_json, json_option


def _one(f: Any) -> dict:
    """One case file's result as a row; a case that cannot be read or whose run raises is a failed row."""
    try:
        case = load_case(f)
    except EiaError as err:
        return {"id": str(f), "section": "?", "title": "(the case file cannot be read)", "path": str(f),
                "passed": False, "problems": [str(err)]}
    row = {"id": case.id, "section": case.section, "title": case.title, "path": str(case.path)}
    try:
        res = run_case(case, rules_context)
    except EiaError as err:  # a case input the procedure refuses
        return {**row, "passed": False, "problems": [f"the case could not run: {err}"]}
    except Exception as err:  # noqa: BLE001 - a raising case is one failed case; the others still run
        return {**row, "passed": False, "problems": [f"the case raised {type(err).__name__}: {err}"]}
    return {**row, "passed": bool(res.passed), "problems": [str(p) for p in res.problems]}


def register(cli: click.Group) -> None:
    @cli.group()
    def rules() -> None:
        """The rules core: run the rules test cases."""

    @rules.command("test")
    @click.argument("path", type=click.Path(path_type=str))
    @click.option("-v", "--verbose", is_flag=True, help="Print every case, not only failures.")
    @json_option
    def test(path: str, verbose: bool, as_json: bool) -> int:
        """Run the rules case file PATH, or every *.toml case under the folder PATH.

        A case that cannot be read, or whose run raises, is one failed case; the others still run.
        """
        rows = [_one(f) for f in find_cases(path)]
        failed = sum(1 for r in rows if not r["passed"])
        if as_json:
            echo_json({"passed": len(rows) - failed, "failed": failed, "cases": rows})
            return 1 if failed else 0
        for r in rows:
            if r["passed"] and verbose:
                click.echo(f"ok    {r['id']}  ({r['section']}) {r['title']}")
            elif not r["passed"]:
                click.echo(f"FAIL  {r['id']}  ({r['section']}) {r['title']}  [{r['path']}]")
                for p in r["problems"]:
                    click.echo(f"      {p}")
        click.echo(f"rules cases: {len(rows) - failed} passed, {failed} failed")
        return 1 if failed else 0

    @rules.command("run")
    @click.argument("path", type=click.Path(path_type=str))
    @click.option("--json", "as_json", is_flag=True, help="Print the whole result as JSON for machines.")
    def run(path: str, as_json: bool) -> int:
        """Run one rules case file PATH and print its result (a battle's report, round by round)."""
        files = find_cases(path)
        if len(files) != 1:
            raise BadData(f"{path}: give one case file, not a folder of {len(files)}")
        res = run_case(load_case(files[0]), rules_context)
        if res.result is None:
            raise BadData(f"{path}: the case could not run: {res.problems[0]}")
        if as_json:
            click.echo(json.dumps(res.result, indent=2, sort_keys=True))
        elif isinstance(res.result.get("report"), list):
            click.echo("\n".join(res.result["report"]))
        else:
            for key in sorted(res.result):
                click.echo(f"{key}: {res.result[key]}")
        for p in res.problems:
            click.echo(f"FAIL  {p}")
        return 1 if res.problems else 0
