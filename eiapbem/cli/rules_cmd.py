"""``eiapbem rules``: run the rules test cases."""

from __future__ import annotations

import click

from eiapbem.data.context import rules_context
from eiapbem.rules.cases import find_cases, load_case, run_case


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
