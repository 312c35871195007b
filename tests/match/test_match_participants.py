"""Participant specs and the registry of built-in bots."""

from __future__ import annotations

import pytest

from shiftago.core import Rules, State
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.bot import Limits
from shiftago.engine.greedy import GreedyBot
from shiftago.engine.mcts_bot import EVERY_ACTION, MctsBot
from shiftago.match import participants as registry
from shiftago.match.participants import (
    lazy_bot,
    parse_participant,
    parse_participants,
)


@pytest.mark.parametrize(
    ("text", "spec", "limits", "level"),
    [
        ("greedy", "greedy", Limits(), None),
        ("GREEDY", "greedy", Limits(), None),
        ("level:3", "level:3", Limits(), 3),
        ("level:7@movetime=100", "level:7@movetime=100", Limits(movetime_ms=100), 7),
        ("level:7@nodes=5000,depth=4", "level:7@depth=4,nodes=5000", Limits(None, 4, 5000), 7),
        ("greedy@DEPTH=1", "greedy@depth=1", Limits(depth=1), None),
        (
            "level:7@hash=64,threads=2,depth=5",
            "level:7@depth=5,threads=2,hash=64",
            Limits(depth=5, threads=2, hash_mib=64),
            7,
        ),
        ("level:7@threads=1", "level:7@threads=1", Limits(), 7),
    ],
)
def test_built_in_specs(text, spec, limits, level):
    p = parse_participant(text)
    assert p.spec == spec
    assert p.key == spec
    assert p.name == spec
    assert p.limits == limits
    assert p.level == level
    assert not p.external


def test_built_in_bots_are_made_by_the_registry():
    assert isinstance(parse_participant("greedy").make_bot(1), GreedyBot)
    bot = parse_participant("level:4").make_bot(1).for_rules(Rules())
    assert isinstance(bot, AlphaBetaBot)
    assert bot.depth == 3
    assert isinstance(parse_participant("level:2").make_bot(1), GreedyBot)
    assert isinstance(parse_participant("mcts:100").make_bot(1), MctsBot)
    plain = parse_participant("mcts-plain").make_bot(1)
    assert isinstance(plain, MctsBot) and not plain.solver
    assert parse_participant("baseline:2").make_bot(1).depth == 2
    with pytest.raises(ValueError, match="whole number"):
        parse_participant("mcts:lots").make_bot(1)


def test_the_blocking_mcts_takes_iterations_and_plies():
    bot = parse_participant("mcts-blocking:300:6").make_bot(1)
    assert isinstance(bot, MctsBot) and bot.iterations == 300 and bot.mcts.blocking == 6
    whole = parse_participant("mcts-blocking:300").make_bot(1)
    assert whole.mcts.blocking == EVERY_ACTION
    for bad in ("mcts-blocking:300:0", "mcts-blocking:lots", "mcts-blocking:300:x"):
        with pytest.raises(ValueError, match="whole number"):
            parse_participant(bad).make_bot(1)


def test_the_guarded_mcts_takes_iterations():
    bot = parse_participant("mcts-guard:300").make_bot(1)
    assert isinstance(bot, MctsBot) and bot.iterations == 300 and bot.mcts.guard
    assert not parse_participant("mcts:300").make_bot(1).mcts.guard
    with pytest.raises(ValueError, match="whole number"):
        parse_participant("mcts-guard:0").make_bot(1)


def test_external_spec_with_options():
    p = parse_participant("cmd:/opt/my engine --fast@level=2,movetime=50,name=mine")
    assert p.external
    assert p.command == ("/opt/my", "engine", "--fast")
    assert p.engine_level == 2
    assert p.level == 2
    assert p.limits == Limits(movetime_ms=50)
    assert p.name == "mine"
    assert p.spec == "cmd:/opt/my engine --fast@movetime=50,level=2"
    with pytest.raises(ValueError, match="external engine"):
        p.make_bot(0)


def test_threads_and_hash_of_an_external_engine_become_its_options():
    p = parse_participant("cmd:engine -q@hash=128,level=3,threads=4")
    assert p.spec == "cmd:engine -q@level=3,threads=4,hash=128"
    assert p.engine_options == (("Threads", 4), ("Hash", 128))
    assert (p.threads, p.hash_mib) == (4, 128)
    assert parse_participant("cmd:engine@threads=1").engine_options == (("Threads", 1),)
    assert parse_participant("cmd:engine").engine_options == ()
    assert parse_participant("level:3@threads=2").engine_options == (("Threads", 2),)


def test_any_engine_option_goes_to_the_engine_not_its_command_line():
    # issue 53: option.Temperature=2 once became part of the command line
    p = parse_participant("cmd:engine -q@option.Temperature=2,OPTION.book=a b.txt,threads=2")
    assert p.command == ("engine", "-q")
    assert p.options == (("Temperature", "2"), ("book", "a b.txt"))
    assert p.engine_options == (("Threads", 2), ("Temperature", "2"), ("book", "a b.txt"))
    assert p.spec == "cmd:engine -q@threads=2,option.Temperature=2,option.book=a b.txt"
    assert parse_participant(p.spec) == p  # the spec reads back as the same participant


def test_default_threads_and_hash_fill_the_spec_like_the_other_limits():
    p = parse_participant("level:5@hash=8", Limits(threads=2, hash_mib=32))
    assert p.spec == "level:5@threads=2,hash=8"
    assert (p.limits.threads, p.limits.hash_mib) == (2, 8)
    assert parse_participant("level:5", Limits(threads=1)).spec == "level:5"


def test_external_command_may_hold_an_at_sign():
    p = parse_participant("cmd:engine --user=a@b")
    assert p.command == ("engine", "--user=a@b")
    assert p.limits == Limits()
    p = parse_participant("cmd:engine --user=a@b@depth=3")
    assert p.command == ("engine", "--user=a@b")
    assert p.limits == Limits(depth=3)
    p = parse_participant("cmd:ssh me@host shiftago engine")
    assert p.command == ("ssh", "me@host", "shiftago", "engine")


def test_quoted_external_command():
    p = parse_participant("cmd:'/path with space/engine' -x")
    assert p.command == ("/path with space/engine", "-x")
    assert p.spec == "cmd:'/path with space/engine' -x"


def test_defaults_fill_only_the_open_limits():
    defaults = Limits(movetime_ms=200, depth=3)
    p = parse_participant("level:5@depth=2", defaults)
    assert p.limits == Limits(movetime_ms=200, depth=2)
    assert p.spec == "level:5@movetime=200,depth=2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nobody", "unknown participant"),
        ("level", "level needs one of the levels"),
        ("level:79", "level needs one of the levels"),
        ("level:x", "level needs one of the levels"),
        ("greedy:3", "takes no argument"),
        ("greedy@depth=0", "whole number from 1"),
        ("greedy@depth=two", "whole number from 1"),
        ("greedy@speed=2", "unknown option"),
        ("greedy@depth=2,depth=3", "given twice"),
        ("greedy@level=2", "for external engines"),
        ("level:7@threads=0", "threads= needs a whole number from 1"),
        ("level:7@hash=lots", "hash= needs a whole number from 1"),
        ("level:7@hash=1,hash=2", "given twice"),
        ("level:7@cores=2", "allowed: movetime=, depth=, nodes=, level=, threads=, hash="),
        ("cmd:", "needs the engine's command line"),
        ("level:3@option.Temperature=2", "has no option 'Temperature'"),
        ("level:3@option.OwnBook=0", "has no option 'OwnBook'"),
        ("level:7@option.OwnBook=2", r"OwnBook is 1 \(on\) or 0 \(off\), not 2"),
        ("level:7@option.OwnBook=off", "needs a whole number"),
        ("cmd:e@option.T=1,option.t=2", "option.t= is given twice"),
        # options that do not read are named, not taken for the body or a command's words
        ("level:3@depth=2,b", "an option after @ is NAME=VALUE, not 'b'"),
        ("level:3@", "an option after @ is NAME=VALUE, not ''"),
        ("level:3@name=", "an option after @ is NAME=VALUE, not 'name='"),
        ("cmd:engine@name=", "an option after @ is NAME=VALUE, not 'name='"),
        ("cmd:engine@depth=2,", "an option after @ is NAME=VALUE, not ''"),
    ],
)
def test_bad_specs_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        parse_participant(text)


def test_the_top_level_can_play_without_its_opening_book():
    plain = parse_participant("level:7@nodes=1000")
    off = parse_participant("level:7@nodes=1000,option.ownbook=0,name=nobook")
    assert off.spec == "level:7@nodes=1000,option.ownbook=0" and off.name == "nobook"
    assert plain.make_bot(3).option_values == {"OwnBook": 1}
    assert off.make_bot(3).option_values == {"OwnBook": 0}


def test_the_same_spec_twice_gets_distinct_keys_and_names():
    a, b, c = parse_participants(["greedy", "greedy", "level:2"])
    assert (a.key, b.key, c.key) == ("greedy", "greedy#2", "level:2")
    assert (a.name, b.name) == ("greedy", "greedy#2")
    assert a.spec == b.spec == "greedy"


def test_two_participants_with_one_name_are_refused():
    with pytest.raises(ValueError, match="named 'x'"):
        parse_participants(["greedy@name=x", "level:2@name=x"])


def test_a_missing_module_makes_a_bot_unavailable():
    factory = lazy_bot("shiftago.engine.no_such_bot", "NoSuchBot")
    with pytest.raises(ValueError, match=r"not available: no module shiftago\.engine\.no_such_bot"):
        factory(None, 0)


def test_a_bot_is_added_with_one_registry_line(monkeypatch):
    monkeypatch.setitem(registry.BOTS, "mygreedy", lazy_bot("shiftago.engine.greedy", "GreedyBot"))
    p = parse_participant("mygreedy@depth=1")
    bot = p.make_bot(7)
    assert isinstance(bot, GreedyBot)
    assert bot.seed == 7
    state = State.initial(Rules(), 0)
    assert bot.choose(state, p.limits) in state.legal_actions()
