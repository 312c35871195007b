"""``shiftago book``: a build on a tiny budget written and shown again, the shipped
books shown, and bad input refused in words."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from click.testing import CliRunner

from shiftago import Rules, State, Variant
from shiftago.engine.book.shipped import read_book
from shiftago.engine.book_build import BuildSettings
from shiftago.interfaces.cli import cli
from shiftago.interfaces.cli.book import build

TINY = ["--games", "4", "--plies", "1", "--level", "1", "--min-games", "1", "--nodes", "500"]


def test_a_tiny_build_writes_the_same_book_for_any_jobs(tmp_path: Path) -> None:
    runner = CliRunner()
    files = []
    for jobs in ("1", "2"):
        out = tmp_path / f"book-{jobs}.json.gz"
        args = ["book", "build", "--variant", "expert", "--players", "3", *TINY, "--every", "2"]
        result = runner.invoke(cli, [*args, "--seed", "3", "--jobs", jobs, "--out", str(out)])
        assert result.exit_code == 0, result.output
        files.append(out.read_bytes())
    assert files[0] == files[1]
    book = read_book(files[0])
    # the start, played and searched, and the four classes of position after one action,
    # searched only
    assert (book.variant, book.players, len(book)) == (Variant.EXPERT, 3, 1 + 4)
    start = State.initial(Rules(Variant.EXPERT, 3), 0)
    assert sum(line.entry.games for line in book.lines(start)) == 4
    assert book.choice(start) in start.legal_actions()
    after = start.after(start.legal_actions()[5])
    assert book.choice(after) in after.legal_actions()
    assert all(line.entry.games == 0 and line.entry.value is not None for line in book.lines(after))
    shown = runner.invoke(
        cli, ["book", "show", "--variant", "expert", "--players", "3", "--file", str(tmp_path /
              "book-1.json.gz")]
    )  # fmt: skip
    assert shown.exit_code == 0, shown.output
    rows = shown.output.splitlines()
    assert rows[1].split() == ["action", "games", "wins", "draws", "score", "value", "proven"]
    assert sorted(row.split()[0] for row in rows[2:]) == ["L1", "L2", "L3", "L4"]
    assert sum(int(row.split()[1]) for row in rows[2:]) == 4
    assert sum(row.endswith("book") for row in rows[2:]) == 1


def test_show_finds_a_position_by_its_actions_or_its_string() -> None:
    runner = CliRunner()
    by_actions = runner.invoke(cli, ["book", "show", "--position", "L4"])
    assert by_actions.exit_code == 0, by_actions.output
    assert by_actions.output.startswith("position express 2 7/7/7/o6/7/7/7 g insert")
    string = State.from_position("express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0").position()
    by_string = runner.invoke(cli, ["book", "show", "--position", string])
    assert by_string.exit_code == 0 and "L4" in by_string.output
    outside = runner.invoke(cli, ["book", "show", "--position", "L1 L1 L1 L1 L1 L1"])
    assert outside.exit_code == 0 and outside.output.startswith("not in the book")


def test_bad_input_is_refused_in_words(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = runner.invoke(cli, ["book", "show", "--position", "L4 Q9"])
    assert bad.exit_code == 1 and "Q9" in bad.output
    other = runner.invoke(cli, ["book", "show", "--players", "3", "--position",
                                "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"])  # fmt: skip
    assert other.exit_code == 1 and "differ from the book's" in other.output
    junk = tmp_path / "junk.json.gz"
    junk.write_bytes(b"not a book")
    unreadable = runner.invoke(cli, ["book", "show", "--file", str(junk)])
    assert unreadable.exit_code == 1 and "Error" in unreadable.output


def test_the_build_options_default_to_the_build_settings() -> None:
    """The command's options and :class:`BuildSettings` say the same defaults (the
    command imports the engine only when it runs, so it cannot read them)."""
    defaults = {f.name: f.default for f in fields(BuildSettings)}
    options = {p.name: p.default for p in build.params if p.name in defaults}
    assert options and set(options) == set(defaults)
    assert options == defaults


def test_a_build_that_follows_its_lines_reuses_an_earlier_books_searches(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["book", "build", *TINY, "--searched", "0", "--every", "2", "--seed", "3"]
    first, fresh, reused = (tmp_path / f"{name}.json.gz" for name in ("first", "fresh", "reused"))
    assert runner.invoke(cli, [*args, "--out", str(first)]).exit_code == 0
    follow = [*args, "--follow", "1"]
    made = runner.invoke(cli, [*follow, "--out", str(fresh)])
    assert made.exit_code == 0, made.output
    again = runner.invoke(cli, [*follow, "--reuse", str(first), "--out", str(reused)])
    assert again.exit_code == 0, again.output
    assert reused.read_bytes() == fresh.read_bytes()
    assert len(read_book(fresh.read_bytes())) > len(read_book(first.read_bytes()))
    # the searches of another seed are not this build's: refused, nothing written
    other = tmp_path / "other.json.gz"
    refused = runner.invoke(cli, [*follow[:-2], "--seed", "4", "--follow", "1", "--reuse",
                                  str(first), "--out", str(other)])  # fmt: skip
    assert refused.exit_code == 1 and "--seed" in refused.output and not other.exists()
    wrong = runner.invoke(cli, [*follow, "--players", "3", "--reuse", str(first), "--out",
                                str(other)])  # fmt: skip
    assert wrong.exit_code == 1 and "players" in wrong.output and not other.exists()
