"""The rules-case harness, a testing subpackage above the rules core (issue 14 item 6).

``harness`` parses and runs case files (``tests/cases/**/*.toml``) against
registered procedures; ``procedures`` holds them (one module per topic);
``scene`` builds the small situations procedures play; ``files`` reads case
files from disk; ``inputs`` reads a case's ``input`` table.  ``eiapbem rules
test`` and the test suite use it; the rules core imports nothing from here.
"""
