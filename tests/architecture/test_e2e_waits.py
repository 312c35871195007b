"""Every ``wait_for_function`` of the browser tests is given a function, never an
expression: Playwright polls an expression with ``eval``, which the pages' policy
(``script-src 'self'``) refuses, so such a wait fails whenever its first look finds the
condition false (tests/e2e/test_web_csp_e2e.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

#: The browser tests.
E2E = Path(__file__).resolve().parents[1] / "e2e"
#: How a JavaScript function begins: ``() =>``, ``x =>``, ``(a, b) =>``, ``function``.
FUNCTION = re.compile(r"\s*(\(|[A-Za-z_$][\w$]*\s*=>|function\b|async\b)")


def _leading_text(node: ast.expr) -> str | None:
    """The text a string argument begins with; None for anything but a string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
        return ""
    return None


def expression_waits(source: str) -> list[int]:
    """The lines of the ``wait_for_function`` calls whose first argument is a string that
    is not a function."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
        ):
            text = _leading_text(node.args[0])
            if text is not None and not FUNCTION.match(text):
                lines.append(node.lineno)
    return lines


def test_the_check_tells_an_expression_from_a_function() -> None:
    source = (
        "page.wait_for_function(\"() => document.title !== ''\")\n"
        "page.wait_for_function('w => w.length', arg=[])\n"
        "page.wait_for_function(f\"(p) => p === '{1}'\")\n"
        "page.wait_for_function(\"document.title !== ''\")\n"
        "page.wait_for_function(f\"{'x'} === 'x'\")\n"
        "page.wait_for_function(PREDICATE)\n"
    )
    assert expression_waits(source) == [4, 5]


def test_every_browser_wait_is_given_a_function() -> None:
    found = {
        f"{path.name}:{line}"
        for path in sorted(E2E.rglob("*.py"))
        for line in expression_waits(path.read_text(encoding="utf-8"))
    }
    assert found == set()
