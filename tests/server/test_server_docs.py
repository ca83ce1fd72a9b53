"""The documents follow the code: every limit in ``docs/operations.md`` as ``Limits`` declares it,
and every error code the server can send in ``docs/protocol.md``."""

from __future__ import annotations

import re

from server_process import ROOT

from parlour.server.limits import Limits

OPERATIONS = ROOT / "docs" / "operations.md"
PROTOCOL = ROOT / "docs" / "protocol.md"


def table_rows(text: str, heading: str) -> list[list[str]]:
    """The cells of the table rows in the section under ``heading`` (up to the next heading of its level)."""
    level = heading.split(" ")[0]
    section = text.split(heading + "\n", 1)[1]
    section = re.split(rf"^{level} ", section, maxsplit=1, flags=re.M)[0]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("| `")]


def test_operations_lists_every_limit_with_its_default_and_meaning() -> None:
    rows = table_rows(OPERATIONS.read_text(), "## Limits")
    documented = {row[0].strip("`"): row for row in rows}
    assert list(documented) == Limits.names(), "the table's limits, in order, are Limits' fields"
    for name, default, help_text in Limits.described():
        row = documented[name]
        assert row[1] == f"{default:g}", f"{name}: the table says {row[1]}, the default is {default:g}"
        assert row[2] == help_text, f"{name}: the table says {row[2]!r}, Limits says {help_text!r}"
        assert row[3], f"{name}: the table must say what happens over it"


def server_codes() -> set[str]:
    """Every error code the server's source can send: ``ProtocolError("code", …)`` and the
    transport's own answers (``error_answer(HTTPStatus…, "code", …)``)."""
    codes: set[str] = set()
    for path in (ROOT / "parlour" / "server").glob("*.py"):
        source = path.read_text()
        codes |= set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', source))
        codes |= set(re.findall(r'error_answer\(\s*HTTPStatus\.\w+,\s*"([a-z_]+)"', source))
    return codes


def test_protocol_lists_every_error_code_the_server_sends() -> None:
    documented = {row[0].strip("`") for row in table_rows(PROTOCOL.read_text(), "## Error codes")}
    missing = server_codes() - documented
    assert server_codes() >= {"rate_limited", "not_found"}, "the search for codes finds them"
    assert not missing, f"docs/protocol.md's error codes lack {sorted(missing)}"


def test_protocol_lists_every_limit_with_its_default() -> None:
    rows = table_rows(PROTOCOL.read_text(), "## Limits")
    assert [row[0].strip("`") for row in rows] == Limits.names(), "the limits, in order, are Limits' fields"
    for (name, default, _), row in zip(Limits.described(), rows, strict=True):
        assert row[1] == f"{default:g}", f"{name}: the table says {row[1]}, the default is {default:g}"
        assert row[2], f"{name}: the table must say what happens over it"
