"""Golden data: perft counts from fixed positions and playthrough transcripts.

- ``golden/perft.json``: for each set-up position, the number of action sequences of
  length 1, 2 and 3 from it (a sequence that ends the game early counts as one leaf).
  The positions were chosen for the rare rules: full lanes, several scoring lines, the
  end-marble choice, pending skips, the special case, nearly empty supplies, a last
  empty cell that makes a line.
- ``golden/playthroughs/*.txt``: one seeded random game per variant and player count:
  each action, then the position and the legal actions after it, then the outcome.

``SHIFTAGO_REGEN_GOLDEN=1`` rewrites both from the core, and only after checking that
the independent reference (``reference.py``) gives exactly the same: counts that the two
implementations disagree on are a bug to report, never data to record. To add a perft
position, add an entry with ``"counts": []`` to the JSON file and regenerate.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from shiftago import Game, Rules, Variant
from support.reference import RefGame

GOLDEN = Path(__file__).parent / "golden"
PERFT_FILE = GOLDEN / "perft.json"
PLAYTHROUGHS = GOLDEN / "playthroughs"
REGEN = os.environ.get("SHIFTAGO_REGEN_GOLDEN") == "1"
PERFT_DEPTH = 3


# --- perft ------------------------------------------------------------------------
def perft(game: Game, depth: int) -> int:
    """Leaf action sequences of length ``depth`` (shorter ones where the game ends)."""
    if game.is_over:
        return 1
    legal = game.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        game.play(action)
        total += perft(game, depth - 1)
        game.undo()
    return total


def perft_reference(ref: RefGame, depth: int) -> int:
    if ref.phase == "over":
        return 1
    legal = ref.legal()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = ref.copy()
        child.play(action)
        total += perft_reference(child, depth - 1)
    return total


def dump_perft(data: dict[str, object]) -> str:
    """The JSON text, one position per entry and its counts on one line."""
    text = json.dumps(data, indent=2)
    return (
        re.sub(r"\[\s+([\d,\s]*?)\s+\]", lambda m: "[" + " ".join(m[1].split()) + "]", text) + "\n"
    )


def load_perft() -> list[dict[str, object]]:
    return json.loads(PERFT_FILE.read_text(encoding="utf-8"))["positions"]


PERFT_CASES = load_perft()


@pytest.mark.parametrize("case", PERFT_CASES, ids=[str(c["name"]) for c in PERFT_CASES])
def test_perft(case: dict[str, object]) -> None:
    position = str(case["position"])
    if REGEN:
        counts = []
        for depth in range(1, PERFT_DEPTH + 1):
            core = perft(Game(position=position), depth)
            ref = perft_reference(RefGame.from_position(position), depth)
            assert core == ref, f"core and reference disagree at depth {depth}: {core} {ref}"
            counts.append(core)
        data = json.loads(PERFT_FILE.read_text(encoding="utf-8"))
        for entry in data["positions"]:
            if entry["name"] == case["name"]:
                entry["counts"] = counts
        PERFT_FILE.write_text(dump_perft(data), encoding="utf-8")
        case = {**case, "counts": counts}
    expected = case["counts"]
    assert isinstance(expected, list) and len(expected) == PERFT_DEPTH, "regenerate the counts"
    game = Game(position=position)
    for depth, count in enumerate(expected, start=1):
        assert perft(game, depth) == count, f"depth {depth}"
    assert game.position() == position  # perft leaves the game as it found it


def test_perft_positions_cover_every_variant_and_player_count() -> None:
    seen = {tuple(str(c["position"]).split()[:2]) for c in PERFT_CASES}
    assert seen == {(v, p) for v in ("express", "expert", "extreme") for p in ("2", "3", "4")}
    phases = {str(c["position"]).split()[4] for c in PERFT_CASES}
    assert phases == {"insert", "score"}


# --- playthroughs -----------------------------------------------------------------
#: (variant, players, handicap, action limit, seed): the seed draws the first seat
#: (``Game(rules, seed=...)``) and, plus one, the random choices of the game.
PLAYTHROUGH_SETTINGS = [
    ("express", 2, (), None, 11),
    ("express", 3, (0, 2, 0), None, 12),
    ("express", 4, (), None, 13),
    ("expert", 2, (1, 0), None, 21),
    ("expert", 3, (), None, 22),
    ("expert", 4, (0, 1, 0, 3), None, 23),
    ("extreme", 2, (), 120, 31),
    ("extreme", 3, (2, 0, 1), 150, 32),
    ("extreme", 4, (), 100, 33),
]


def legal_line(actions: list[str]) -> str:
    return "legal:" + "".join(" " + a for a in actions)


def settings_line(
    variant: str, players: int, handicap: tuple[int, ...], limit: int | None, seed: int
) -> str:
    hc = ",".join(map(str, handicap)) if handicap else "none"
    return f"settings: {variant} {players} handicap={hc} limit={limit or 'none'} seed={seed}"


def transcript(
    variant: str,
    players: int,
    handicap: tuple[int, ...],
    limit: int | None,
    seed: int,
    actions: list[str] | None,
) -> tuple[str, list[str]]:
    """The transcript of the game; plays ``actions``, or random ones when None."""
    rules = Rules(Variant(variant), players, handicap, limit)
    game = Game(rules, seed=seed)
    rng = random.Random(seed + 1)
    lines = [
        "# Shiftago playthrough: tests/test_golden.py checks it; "
        "SHIFTAGO_REGEN_GOLDEN=1 rewrites it",
        settings_line(variant, players, handicap, limit, seed),
        f"position: {game.position()}",
        legal_line([str(a) for a in game.legal_actions()]),
    ]
    played = []
    step = 0
    while not game.is_over if actions is None else step < len(actions):
        action = rng.choice(game.legal_actions()) if actions is None else actions[step]
        game.play(action)
        step += 1
        played.append(str(game.history[-1]))
        lines.append(f"action {step}: {game.history[-1]}")
        lines.append(f"position: {game.position()}")
        lines.append(legal_line([str(a) for a in game.legal_actions()]))
    outcome = game.outcome
    lines.append(f"outcome: {outcome}" if outcome is not None else "outcome: none")
    return "\n".join(lines) + "\n", played


def reference_transcript_agrees(
    variant: str, players: int, handicap: tuple[int, ...], limit: int | None, seed: int,
    actions: list[str], text: str,
) -> None:  # fmt: skip
    """Replay the actions in the reference and check every position and legal list."""
    first = random.Random(seed).randrange(players)
    ref = RefGame(variant, players, handicap, first, limit)
    rows = [line for line in text.splitlines() if line.startswith(("position:", "legal:"))]
    expected = []
    for i in range(len(actions) + 1):
        if i:
            ref.play(actions[i - 1])
        expected += [f"position: {ref.position()}", legal_line(ref.legal())]
    assert rows == expected
    assert ref.reason is not None
    outcome = text.splitlines()[-1]
    assert outcome.endswith(f"({ref.reason})")


def playthrough_file(variant: str, players: int) -> Path:
    return PLAYTHROUGHS / f"{variant}-{players}.txt"


def read_actions(text: str) -> list[str]:
    return [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("action ")]


@pytest.mark.parametrize(
    ("variant", "players", "handicap", "limit", "seed"),
    PLAYTHROUGH_SETTINGS,
    ids=[f"{v}-{p}" for v, p, *_ in PLAYTHROUGH_SETTINGS],
)
def test_playthrough(
    variant: str, players: int, handicap: tuple[int, ...], limit: int | None, seed: int
) -> None:
    path = playthrough_file(variant, players)
    if REGEN:
        text, actions = transcript(variant, players, handicap, limit, seed, None)
        reference_transcript_agrees(variant, players, handicap, limit, seed, actions, text)
        PLAYTHROUGHS.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    recorded = path.read_text(encoding="utf-8")
    assert recorded.splitlines()[1] == settings_line(variant, players, handicap, limit, seed)
    actions = read_actions(recorded)
    assert actions, "an empty playthrough"
    replayed, _ = transcript(variant, players, handicap, limit, seed, actions)
    assert replayed.splitlines() == recorded.splitlines()
    assert recorded.splitlines()[-1].startswith("outcome: over ")
