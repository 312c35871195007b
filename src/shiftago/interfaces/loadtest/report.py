"""The load report as a table for people (``--json`` prints the report itself)."""

from __future__ import annotations

from typing import Any

PHASES = ("start", "load", "peak", "end")
LATENCIES = (
    ("act_to_own_event", "act -> event, own socket"),
    ("act_to_opponent_event", "act -> event, opponent"),
    ("computer_answer", "computer's answer"),
)


def _number(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.1f}"
    return str(value)


def _phases(entry: dict[str, Any], name: str) -> str:
    """A figure at the start, under load (at the stop), its peak and at the end."""
    return " / ".join(_number((entry.get(p) or {}).get(name)) for p in PHASES)


def _spread(report: dict[str, Any], processes: int) -> str:
    """How the games' sockets were spread over several processes."""
    if processes < 2:
        return ""
    return " (each game on one)" if report["sockets"] == "by-game" else " (each game across two)"


def format_report(report: dict[str, Any]) -> str:
    urls = report["urls"]
    processes = len(dict.fromkeys(urls))
    lines = [
        f"shiftago loadtest: {report['games']} games at once "
        f"({report['computer_games']} against the computer at level {report['computer_level']}, "
        f"{report['watchers']} watchers each) on {processes} "
        f"process{'es' if processes > 1 else ''}{_spread(report, processes)}, "
        f"{report['elapsed_s']} s",
    ]
    played, actions = report["played"], report["actions"]
    lines.append(
        f"games        {_number(played['started'])} started, {_number(played['finished'])} "
        f"finished, {_number(played['stalled'])} stalled"
    )
    lines.append(
        f"actions      {_number(actions['acknowledged'])} acknowledged "
        f"({_number(actions['per_second'])}/s): {_number(actions['sent'])} sent by people, "
        f"{_number(actions['by_computer'])} by the computer"
    )
    lines.append(f"{'latency (ms)':<30}{'count':>8}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}")
    for key, label in LATENCIES:
        figures = report["latency_ms"][key]
        cells = "".join(f"{_number(figures[k]):>9}" for k in ("p50", "p95", "p99", "max"))
        lines.append(f"  {label:<28}{_number(figures['count']):>8}{cells}")
    errors = report["errors"]
    listed = ", ".join(f"{kind} {count:,}" for kind, count in errors.items()) or "none"
    lines.append(f"errors       {listed}")
    lines.append(
        f"rate limited {_number(report['rate_limited'])} (HTTP 429 and rate_limited events); "
        f"reconnects {_number(report['reconnects'])}"
    )
    lines.append(
        f"checked      {_number(report['checked_games'])} games read back "
        f"({_number(report['unreadable_games'])} unreadable): "
        f"lost {_number(report['lost'])}, duplicated {_number(report['duplicated'])}, "
        f"unacknowledged {_number(report['unacknowledged'])}, computer actions after "
        f"the end {_number(report['late_computer_actions'])}"
    )
    lines.append("memory       start / under load (at the stop) / peak / end")
    for entry in report["memory"]:
        lines.append(
            f"  {entry['url']}: rss MiB {_phases(entry, 'rss_mib')}; games in memory "
            f"{_phases(entry, 'games_in_memory')}; connections {_phases(entry, 'connections')}"
        )
    for entry in report["processes"]:
        vm = " / ".join(_number(entry.get(p)) for p in PHASES)
        lines.append(f"  pid {entry['pid']}: VmRSS MiB {vm}")
    tool = report["tool"]
    lag = tool["loop_lag_ms"]
    lines.append(
        f"tool         cpu {_number(tool['cpu_s'])} s ({_number(tool['cpu_share'])} of a core), "
        f"its event loop late p99 {_number(lag['p99'])} ms, max {_number(lag['max'])} ms"
    )
    return "\n".join(lines)
