"""The load report as a table for people, in the terminal's language (``--json`` prints
the report itself, in English).

The figures' units (``ms``, ``MiB``, ``s``), the percentiles' names (``p50``, ``p95``,
``p99``), ``rss``, ``VmRSS`` and ``pid``, the URLs and the kinds of error
(``http:429``) are the same in every language: they are names, not words."""

from __future__ import annotations

from typing import Any, Final

from shiftago.interfaces.shared.catalogues import N_, _, ngettext

PHASES: Final = ("start", "load", "peak", "end")
LATENCIES: Final = (
    ("act_to_own_event", N_("act -> event, own socket")),
    ("act_to_opponent_event", N_("act -> event, opponent")),
    ("computer_answer", N_("computer's answer")),
)
#: The percentiles of the latency table, after its count and before its maximum.
PERCENTILES: Final = ("p50", "p95", "p99")
#: The labels of the report's lines, in their order (the column is as wide as the
#: longest in the terminal's language).
LINES: Final = (
    ("games", N_("games")),
    ("actions", N_("actions")),
    ("errors", N_("errors")),
    ("rate_limited", N_("rate limited")),
    ("checked", N_("checked")),
    ("memory", N_("memory")),
    ("tool", N_("tool")),
)
#: The latency table's narrowest columns (its English layout): the labels (indented
#: by two), the count and each figure.
LABEL_WIDTH: Final = 28
COUNT_WIDTH: Final = 8
FIGURE_WIDTH: Final = 9


def _number(value: Any) -> str:
    if value is None:
        return _("n/a")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.1f}"
    return str(value)


def _phases(entry: dict[str, Any], name: str) -> str:
    """A figure at the start, under load (at the stop), its peak and at the end."""
    return " / ".join(_number((entry.get(p) or {}).get(name)) for p in PHASES)


def _processes(report: dict[str, Any], processes: int) -> str:
    """How many processes, and how the games' sockets were spread over several."""
    text = ngettext("%(n)d process", "%(n)d processes", processes) % {"n": processes}
    if processes < 2:
        return text
    if report["sockets"] == "by-game":
        return _("%(processes)s (each game on one)") % {"processes": text}
    return _("%(processes)s (each game across two)") % {"processes": text}


def _summary(report: dict[str, Any], processes: int) -> str:
    games, watchers = report["games"], report["watchers"]
    return _(
        "shiftago loadtest: %(games)s (%(computer)d against the computer at level %(level)d, "
        "%(watchers)s) on %(processes)s, %(seconds)s s"
    ) % {
        "games": ngettext("%(n)d game at once", "%(n)d games at once", games) % {"n": games},
        "computer": report["computer_games"],
        "level": report["computer_level"],
        "watchers": ngettext("%(n)d watcher each", "%(n)d watchers each", watchers)
        % {"n": watchers},
        "processes": _processes(report, processes),
        "seconds": report["elapsed_s"],
    }


def _latency_table(report: dict[str, Any]) -> list[str]:
    """The latencies' table: a head, then a row each, its label indented by two."""
    head = _("latency (ms)")
    labels = [_(label) for _key, label in LATENCIES]
    width = max(LABEL_WIDTH, len(head) - 1, *(len(label) + 1 for label in labels))
    count = _("count")
    count_width = max(COUNT_WIDTH, len(count) + 1)
    most = _("max")
    heads = [*PERCENTILES, most]
    widths = [max(FIGURE_WIDTH, len(word) + 1) for word in heads]
    lines = [
        f"{head:<{width + 2}}{count:>{count_width}}"
        + "".join(f"{word:>{w}}" for word, w in zip(heads, widths, strict=True))
    ]
    for (key, _label), label in zip(LATENCIES, labels, strict=True):
        figures = report["latency_ms"][key]
        values = [figures[k] for k in (*PERCENTILES, "max")]
        cells = "".join(f"{_number(v):>{w}}" for v, w in zip(values, widths, strict=True))
        lines.append(f"  {label:<{width}}{_number(figures['count']):>{count_width}}{cells}")
    return lines


def format_report(report: dict[str, Any]) -> str:
    urls = report["urls"]
    processes = len(dict.fromkeys(urls))
    words = {key: _(label) for key, label in LINES}
    width = max(len(word) for word in words.values()) + 1

    def line(key: str, text: str) -> str:
        return f"{words[key]:<{width}}{text}"

    lines = [_summary(report, processes)]
    played, actions = report["played"], report["actions"]
    lines.append(
        line(
            "games",
            _("%(started)s started, %(finished)s finished, %(stalled)s stalled")
            % {
                "started": _number(played["started"]),
                "finished": _number(played["finished"]),
                "stalled": _number(played["stalled"]),
            },
        )
    )
    lines.append(
        line(
            "actions",
            _(
                "%(acknowledged)s acknowledged (%(per_second)s/s): %(sent)s sent by people, "
                "%(by_computer)s by the computer"
            )
            % {
                "acknowledged": _number(actions["acknowledged"]),
                "per_second": _number(actions["per_second"]),
                "sent": _number(actions["sent"]),
                "by_computer": _number(actions["by_computer"]),
            },
        )
    )
    lines += _latency_table(report)
    errors = report["errors"]
    listed = ", ".join(f"{kind} {count:,}" for kind, count in errors.items()) or _("none")
    lines.append(line("errors", listed))
    lines.append(
        line(
            "rate_limited",
            _("%(refused)s (HTTP 429 and rate_limited events); reconnects %(reconnects)s")
            % {
                "refused": _number(report["rate_limited"]),
                "reconnects": _number(report["reconnects"]),
            },
        )
    )
    lines.append(
        line(
            "checked",
            ngettext(
                "%(checked)s game read back (%(unreadable)s unreadable): lost %(lost)s, "
                "duplicated %(duplicated)s, unacknowledged %(unacknowledged)s, computer "
                "actions after the end %(late)s",
                "%(checked)s games read back (%(unreadable)s unreadable): lost %(lost)s, "
                "duplicated %(duplicated)s, unacknowledged %(unacknowledged)s, computer "
                "actions after the end %(late)s",
                report["checked_games"],
            )
            % {
                "checked": _number(report["checked_games"]),
                "unreadable": _number(report["unreadable_games"]),
                "lost": _number(report["lost"]),
                "duplicated": _number(report["duplicated"]),
                "unacknowledged": _number(report["unacknowledged"]),
                "late": _number(report["late_computer_actions"]),
            },
        )
    )
    lines.append(line("memory", _("start / under load (at the stop) / peak / end")))
    for entry in report["memory"]:
        lines.append(
            "  "
            + _("%(url)s: rss MiB %(rss)s; games in memory %(games)s; connections %(connections)s")
            % {
                "url": entry["url"],
                "rss": _phases(entry, "rss_mib"),
                "games": _phases(entry, "games_in_memory"),
                "connections": _phases(entry, "connections"),
            }
        )
    for entry in report["processes"]:  # names and numbers only: the same in every language
        vm = " / ".join(_number(entry.get(p)) for p in PHASES)
        lines.append(f"  pid {entry['pid']}: VmRSS MiB {vm}")
    tool = report["tool"]
    lag = tool["loop_lag_ms"]
    lines.append(
        line(
            "tool",
            _(
                "cpu %(cpu)s s (%(share)s of a core), its event loop late p99 %(p99)s ms, "
                "max %(max)s ms"
            )
            % {
                "cpu": _number(tool["cpu_s"]),
                "share": _number(tool["cpu_share"]),
                "p99": _number(lag["p99"]),
                "max": _number(lag["max"]),
            },
        )
    )
    return "\n".join(lines)
