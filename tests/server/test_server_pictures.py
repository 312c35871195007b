"""A game's pictures over HTTP: the PNG of a step and the GIF of the game, their bounds,
caching and headers; and a new game set up from a position (``POST /api/games``)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from shiftago.interfaces.server.games import pictures
from support.server_support import client_for, create

#: Orange builds a1-d1 while green and blue fill files g and f: a line of 4 (3 players).
ORANGE_LINE = "1. Ba 2. Tg 3. Tf 4. Bb 5. Tg 6. Tf 7. Bc 8. Tg 9. Tf 10. Bd"


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'pictures.db'}"


def imported(
    client, moves: str, variant: str = "express", players: int = 2, result: str = "*"
) -> str:
    record = f'[Variant "{variant}"]\n[Players "{players}"]\n[First "o"]\n\n{moves} {result}\n'
    answer = client.post("/api/games/import", json={"record": record})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def picture(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_png_of_the_current_position_and_of_each_step(db_url):
    with client_for(db_url) as client:
        game_id = imported(client, "1. L3 2. Td 3. R5")
        now = client.get(f"/api/games/{game_id}.png")
        assert now.status_code == 200
        assert now.headers["content-type"] == "image/png"
        assert now.headers["x-content-type-options"] == "nosniff"
        assert "content-security-policy" in now.headers
        image = picture(now.content)
        assert image.format == "PNG" and image.size == (420, 420)
        steps = [client.get(f"/api/games/{game_id}.png?step={n}") for n in range(4)]
        assert all(s.status_code == 200 for s in steps)
        assert steps[3].content == now.content  # step 3 is the current position
        assert len({s.content for s in steps}) == 4
        small = client.get(f"/api/games/{game_id}.png?step=1&size=200")
        assert picture(small.content).size == (200, 200)


@pytest.mark.parametrize("step", ["-1", "4", "99"])
def test_a_step_out_of_the_game_is_422_naming_it(db_url, step):
    with client_for(db_url) as client:
        game_id = imported(client, "1. L3 2. Td 3. R5")
        answer = client.get(f"/api/games/{game_id}.png?step={step}")
        assert answer.status_code == 422
        assert answer.json()["field"] == "step"
        assert "0 to 3" in answer.json()["message"]


def test_a_step_that_is_no_number_is_422(db_url):
    with client_for(db_url) as client:
        game_id = imported(client, "1. L3")
        answer = client.get(f"/api/games/{game_id}.png?step=two")
        assert answer.status_code == 422
        assert "step" in answer.json()["message"]


def test_gif_has_a_frame_per_action_and_the_start(db_url):
    with client_for(db_url) as client:
        game_id = imported(client, "1. L3 2. Td 3. R5 4. Ba")
        answer = client.get(f"/api/games/{game_id}.gif?size=160")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "image/gif"
        image = picture(answer.content)
        assert image.format == "GIF" and image.n_frames == 5


def test_a_new_game_is_one_frame(db_url):
    with client_for(db_url) as client:
        game_id, _ = create(client, players=2, first="o")
        image = picture(client.get(f"/api/games/{game_id}.gif?size=160").content)
        assert image.n_frames == 1


def test_a_finished_expert_game_with_a_scoring(db_url):
    """A finished game's pictures are kept a day; its scoring step is drawn too."""
    with client_for(db_url) as client:
        game_id = imported(client, ORANGE_LINE + " xa1-d1", "expert", 3)
        read = client.get(f"/api/games/{game_id}").json()
        assert read["actions"][-1] == "xa1-d1"
        gif = client.get(f"/api/games/{game_id}.gif?size=160")
        assert picture(gif.content).n_frames == 12
        assert "no-cache" in gif.headers["cache-control"]  # Expert goes on after a line
        scored = client.get(f"/api/games/{game_id}.png?step=11").content
        before = client.get(f"/api/games/{game_id}.png?step=10").content
        assert scored != before


def test_a_finished_game_may_be_kept(db_url):
    with client_for(db_url) as client:
        line = "1. L1 2. L7 3. L1 4. L7 5. L1 6. L7 7. L1 8. L7 9. L1"
        game_id = imported(client, line, result="o")
        assert client.get(f"/api/games/{game_id}").json()["result"] is not None
        answer = client.get(f"/api/games/{game_id}.gif?size=160")
        assert answer.status_code == 200
        assert answer.headers["cache-control"].startswith("public, max-age=")
        assert picture(answer.content).n_frames == 10


def test_an_unchanged_picture_answers_304_to_its_tag(db_url):
    with client_for(db_url) as client:
        game_id = imported(client, "1. L3 2. Td")
        first = client.get(f"/api/games/{game_id}.png")
        assert first.headers["cache-control"] == "no-cache"
        tag = first.headers["etag"]
        again = client.get(f"/api/games/{game_id}.png", headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b""
        other = client.get(f"/api/games/{game_id}.png?step=1", headers={"If-None-Match": tag})
        assert other.status_code == 200 and other.headers["etag"] != tag


def test_unknown_game_pictures_are_404(db_url):
    with client_for(db_url) as client:
        assert client.get("/api/games/nosuchgame1.png").status_code == 404
        assert client.get("/api/games/nosuchgame1.gif").status_code == 404


def test_too_many_pictures_waiting_answer_503(db_url, monkeypatch):
    monkeypatch.setattr(pictures, "MAX_WAITING", 0)
    with client_for(db_url) as client:
        game_id = imported(client, "1. L3")
        answer = client.get(f"/api/games/{game_id}.gif")
        assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
        assert answer.json()["code"] == "busy"
