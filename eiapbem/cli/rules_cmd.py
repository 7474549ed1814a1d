"""``eiapbem rules``: run the rules test cases."""

from __future__ import annotations

import json

import click

from eiapbem.data.context import rules_context
from eiapbem.core.errors import BadData
from eiapbem.rulecases.files import find_cases, load_case
from eiapbem.rulecases.harness import run_case


def register(cli: click.Group) -> None:
    @cli.group()
    def rules() -> None:
        """The rules core: run the rules test cases."""

    @rules.command("test")
    @click.argument("path", type=click.Path(path_type=str))
    @click.option("-v", "--verbose", is_flag=True, help="Print every case, not only failures.")
    def test(path: str, verbose: bool) -> int:
        """Run the rules case file PATH, or every *.toml case under the folder PATH."""

        files = find_cases(path)
        passed = failed = 0
        for f in files:
            case = load_case(f)
            res = run_case(case, rules_context)
            if res.passed:
                passed += 1
                if verbose:
                    click.echo(f"ok    {case.id}  ({case.section}) {case.title}")
            else:
                failed += 1
                click.echo(f"FAIL  {case.id}  ({case.section}) {case.title}  [{case.path}]")
                for p in res.problems:
                    click.echo(f"      {p}")
        click.echo(f"rules cases: {passed} passed, {failed} failed")
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
