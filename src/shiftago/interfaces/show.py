"""``shiftago show``: a position string or a game record as text boards or SVG files,
or as pictures to share.

A record is replayed action by action (each action, then the board), or shown only at
its end; with an SVG directory every step (or only the last) becomes a numbered file.
A PNG shows the last position (its last action marked), a GIF every step of the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from shiftago.core import Action, Game, ShiftagoError, State
from shiftago.formats.picture import gif_bytes, png_bytes
from shiftago.formats.record import Record
from shiftago.formats.source import SourceError, load_source
from shiftago.formats.svg_board import render_svg
from shiftago.formats.text_board import render_text, use_color
from shiftago.interfaces.shared.catalogues import N_, _, ngettext
from shiftago.interfaces.shared.game_words import (
    actions,
    colour_name,
    error_words,
    game_kind,
    game_of_file,
    handicap_words,
    record_result,
    status,
)


class ShowError(ValueError):
    """Something to show that cannot be read; the message names the place and problem."""


@dataclass(frozen=True)
class Step:
    """One picture of a replay: the state after ``action`` (None for the start)."""

    number: int
    state: State
    action: Action | None
    mover: int | None


def load(target: str, stdin: TextIO | None = None) -> tuple[str, list[Record] | State]:
    """What ``target`` names: ``-`` (standard input), a file, or a position string.

    Returns a short name for it and either its records or the position's state.
    """
    try:
        return load_source(target, stdin)
    except SourceError as e:
        raise ShowError(error_words(e)) from None


def replay(record: Record, name: str) -> list[Step]:
    """Every step of a record's game, starting with its first position."""
    try:
        game = record.to_game()
    except ShiftagoError as e:
        raise ShowError(f"{name}: {error_words(e)}") from None
    states = game.states
    steps = [Step(0, states[0], None, None)]
    for i, action in enumerate(game.history):
        steps.append(Step(i + 1, states[i + 1], action, states[i].turn))
    return steps


#: A record's kinds of player (its seats' ``human`` and ``computer``) as words.
KIND_WORDS = {"human": N_("human"), "computer": N_("computer")}


def describe(record: Record, game: Game) -> str:
    """One line about a record: variant, players, handicap, seats, date, actions."""
    rules = game.rules
    parts = [game_kind(rules)]
    handicap = handicap_words(rules)
    if handicap is not None:
        parts.append(handicap)
    players = []
    for seat, who in enumerate(record.seats):
        level = None if who.level is None else _("level %(n)d") % {"n": who.level}
        kind = _(KIND_WORDS[who.kind]) if who.kind in KIND_WORDS else who.kind
        about = [w for w in (kind, level) if w]
        if who.name and about:
            players.append(f"{colour_name(seat)}: {who.name} ({', '.join(about)})")
        elif who.name or about:
            players.append(f"{colour_name(seat)}: {who.name or ', '.join(about)}")
    if players:
        parts.append(", ".join(players))
    if record.event:
        parts.append(record.event)
    if record.date:
        parts.append(record.date)
    parts.append(actions(len(game.history)))
    return "; ".join(parts)


def step_title(step: Step) -> str:
    if step.action is None or step.mover is None:
        return _("Start")
    return f"{step.number}. {colour_name(step.mover)} {step.action}"


def show_text(
    steps: list[Step], out: TextIO, *, final: bool, color: bool, titles: bool = True
) -> None:
    chosen = steps[-1:] if final else steps
    for i, step in enumerate(chosen):
        if i:
            out.write("\n")
        if titles:
            out.write(step_title(step) + "\n")
        out.write(render_text(step.state, color=color, last_action=step.action) + "\n")
    out.write(status(steps[-1].state) + "\n")


def write_svgs(steps: list[Step], directory: Path, *, final: bool, prefix: str) -> list[Path]:
    """One SVG per step (``PREFIX-000.svg`` is the start), or only ``PREFIX-final.svg``.

    A lone position (one step) is ``PREFIX.svg``.
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ShowError(
            _("cannot create %(path)s: %(why)s") % {"path": directory, "why": e.strerror or e}
        ) from None
    chosen = steps[-1:] if final else steps
    written = []
    for step in chosen:
        if len(steps) == 1 and final:
            path = directory / f"{prefix}.svg"
        else:
            label = "final" if final else f"{step.number:03d}"
            path = directory / f"{prefix}-{label}.svg"
        svg = render_svg(step.state, last_action=step.action)
        try:
            path.write_text(svg, encoding="utf-8")
        except OSError as e:
            raise ShowError(
                _("cannot write %(path)s: %(why)s") % {"path": path, "why": e.strerror or e}
            ) from None
        written.append(path)
    return written


def write_pictures(steps: list[Step], *, png: Path | None, gif: Path | None) -> list[Path]:
    """The last step as a PNG and every step as an animated GIF, where asked for."""
    pictures: list[tuple[Path, bytes]] = []
    if png is not None:
        last = steps[-1]
        pictures.append((png, png_bytes(last.state, last_action=last.action)))
    if gif is not None:
        states = [step.state for step in steps]
        actions = [step.action for step in steps[1:] if step.action is not None]
        pictures.append((gif, gif_bytes((states, actions))))
    for path, data in pictures:
        try:
            path.write_bytes(data)
        except OSError as e:
            raise ShowError(
                _("cannot write %(path)s: %(why)s") % {"path": path, "why": e.strerror or e}
            ) from None
    return [path for path, _ in pictures]


def show(
    target: str,
    out: TextIO,
    *,
    final: bool = False,
    svg_dir: Path | None = None,
    png: Path | None = None,
    gif: Path | None = None,
    game_number: int = 1,
    stdin: TextIO | None = None,
) -> None:
    """Show ``target`` on ``out`` (or write its SVG files or pictures); raises
    :class:`ShowError`."""
    name, loaded = load(target, stdin)
    color = use_color(out)
    if isinstance(loaded, State):
        if game_number != 1:
            raise ShowError(
                _("%(name)s holds a position, not a game %(number)d")
                % {"name": name, "number": game_number}
            )
        steps = [Step(0, loaded, None, None)]
        prefix = "position"
        header = None
    else:
        if not 1 <= game_number <= len(loaded):
            # English says "game(s)" for every number; the plural forms let a language do better
            message = ngettext(
                "%(name)s holds %(n)d game(s), not a game %(number)d",
                "%(name)s holds %(n)d game(s), not a game %(number)d",
                len(loaded),
            )
            raise ShowError(message % {"name": name, "n": len(loaded), "number": game_number})
        record = loaded[game_number - 1]
        steps = replay(record, name)
        if len(loaded) > 1:
            out.write(game_of_file(name, len(loaded), game_number) + "\n")
        prefix = "game" if name == "<stdin>" else Path(name).stem
        if len(loaded) > 1:
            prefix += f"-{game_number}"
        game = record.to_game()
        header = describe(record, game)
    if png is not None or gif is not None:
        for path in write_pictures(steps, png=png, gif=gif):
            out.write(_("wrote %(path)s") % {"path": path} + "\n")
        if svg_dir is None:
            return
    if svg_dir is not None:
        written = write_svgs(steps, svg_dir, final=final or header is None, prefix=prefix)
        n = len(written)
        said = ngettext(
            "wrote %(n)d SVG file to %(folder)s", "wrote %(n)d SVG files to %(folder)s", n
        )
        out.write(said % {"n": n, "folder": svg_dir} + "\n")
        for path in written:
            out.write(f"  {path.name}\n")
        return
    if header is not None:
        out.write(header + "\n\n")
    show_text(steps, out, final=final, color=color, titles=header is not None)
    if header is not None and record.termination is not None:  # the rules did not end it
        out.write(_("ended: %(result)s") % {"result": record_result(record, game)} + "\n")
