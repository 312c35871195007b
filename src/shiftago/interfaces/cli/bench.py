"""``shiftago bench``: the speed of the engine (:mod:`shiftago.engine.bench`) and of the
RL environments (:mod:`shiftago.env.bench`)."""

from __future__ import annotations

import json

import click

from shiftago.interfaces.cli.words import command, option
from shiftago.interfaces.shared.catalogues import N_, _


@command(
    short_help=N_("Measure the speed of the engine and the RL environments."),
    help=N_("Measure the speed of the rules engine and the RL environments; print the figures."),
)
@option("--json", "json_output", is_flag=True, help=N_("Print the figures as one JSON object."))
@option(
    "--runs",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help=N_("Timed runs per figure (the median is reported)."),
)
@option("--quick", is_flag=True, help=N_("Measure less: a smoke test, not a figure to quote."))
def bench(json_output: bool, runs: int, quick: bool) -> None:
    """Run both benches and print their figures, as a table or as JSON."""
    from shiftago.engine.bench import run_bench
    from shiftago.env.bench import env_figures, env_notes

    figures = run_bench(runs=runs, quick=quick)
    figures.update(env_figures(runs=runs, quick=quick))
    notes = env_notes(figures)
    if quick:
        notes.insert(0, _("--quick measured too little for these figures to be quoted"))
    for note in notes:
        click.echo(_("note: %(note)s") % {"note": note}, err=True)
    if json_output:
        click.echo(json.dumps(figures, sort_keys=True))
        return
    width = max((len(k) for k in figures), default=0)
    for key, value in figures.items():
        click.echo(f"{key:<{width}}  {figure_text(value)}")


def figure_text(value: float) -> str:
    """A bench figure as the bench rounded it: a count with thousands separators
    (``1,584,374``), a time or a ratio with its decimals (``0.351``, ``1.57``)."""
    return f"{value:,}"
