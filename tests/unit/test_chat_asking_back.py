"""A bot that asks back (agent/chat/commander.py, agent/chat/confirm.py): a goal said in chat,
by `!goal`, a whisper or a line that starts with the bot's name, is read first. Understood whole
it runs; in part the bot says what it understood and what not and waits for "yes", a new wording
or ANSWER_WAIT_S on a fake clock; not at all it says so. Only allowlisted, trusted players give
goals: a stranger's whisper, and a teammate's ask, are not goals."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest

from agent.bridge.models import BotEvent
from agent.chat import ANSWER_WAIT_S, ChatCommand, ChatCommander, GoalExchange, Reading
from agent.chat.confirm import Questions, addressed, reply_to_question
from agent.config import AgentConfig
from agent.goals.understanding import SubGoal
from agent.replay.timeline import render
from agent.session.chat_goals import chat_reader, left_out_of
from agent.session.team import Team
from agent.session.team_run import _own_config
from agent.trace.schema import ChatGoal
from support.fake_chat import FakeBot

# A line is handled on the commander's own thread, within milliseconds; a question's expiry is
# seen within its poll (EXPIRY_POLL_S).
HANDLED_S = 5.0
PARTLY = "get 3 oak logs and dance"
ASKED = "boss: I'd get 3 oak logs; I don't know what 'dance' is; say yes to go, or say it another way"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def fake_read(words: str) -> Reading:
    """The reader as the commander sees it: readings in words, fixed here (the real one: below)."""
    known = {
        PARTLY: Reading(words=PARTLY, understood="get 3 oak logs", not_understood=["dance"],
                        answer="I'd get 3 oak logs; I don't know what 'dance' is"),
        "get 3 oak logs and build a shed": Reading(
            words="get 3 oak logs and build a shed", understood="get 3 oak logs", not_understood=["build a shed"],
            answer="I'd get 3 oak logs; I don't know what 'build a shed' is"),
        "get me 3 logs": Reading(words="get me 3 logs", understood="get 3 oak logs", answer="I'll get 3 oak logs"),
    }
    return known.get(words) or Reading(words=words, not_understood=[words], answer=f"I don't understand '{words}'")


class Harness:
    def __init__(self, *, secret: str | None = None, secret_required: bool = False) -> None:
        self.bot, self.clock = FakeBot("scout"), FakeClock()
        self.goals: list[str] = []
        self._heard: queue.Queue[ChatCommand | GoalExchange] = queue.Queue()
        self.commander = ChatCommander(
            self.bot, ["boss", "chief"], on_stop=lambda player: None, on_goal=self.goals.append, status=lambda: "idle",
            on_event=self._heard.put, secret=secret, secret_required=secret_required, read=fake_read, clock=self.clock,
        )

    def say(self, player: str, message: str, *, whisper: bool = False, records: int = 1) -> list[ChatCommand | GoalExchange]:
        """Says `message` as `player`; the `records` the commander reports for it."""
        kind = "whisper" if whisper else "chat"
        self.bot.events.push(BotEvent(kind=kind, time=time.time(), username=player, message=message))
        return [self._heard.get(timeout=HANDLED_S) for _ in range(records)]

    def goal(self, player: str, message: str, *, whisper: bool = False) -> GoalExchange:
        (record,) = self.say(player, message, whisper=whisper)
        assert isinstance(record, GoalExchange), record
        return record

    def said_nothing_to(self, player: str, message: str) -> None:
        """`message` is reported as nothing: a command after it is the next record."""
        self.bot.events.push(BotEvent(kind="chat", time=time.time(), username=player, message=message))
        (after,) = self.say("boss", "!nothing")
        assert isinstance(after, ChatCommand) and after.reason == "unknown command", after

    def wait(self) -> GoalExchange:
        record = self._heard.get(timeout=HANDLED_S)
        assert isinstance(record, GoalExchange), record
        return record


@pytest.fixture
def chat() -> Iterator[Harness]:
    harness = Harness()
    yield harness
    harness.commander.close()


def test_a_goal_understood_whole_runs_at_once_and_says_what_it_understood(chat: Harness) -> None:
    started = chat.goal("boss", "scout, get me 3 logs")
    assert (started.outcome, started.via, started.goal) == ("started", "chat", "get me 3 logs")
    assert chat.goals == ["get me 3 logs"] and chat.bot.said[-1] == "new goal from boss: get 3 oak logs"
    assert chat.goal("boss", "scout get me 3 logs").outcome == "started"  # no comma
    assert chat.goal("boss", "get me 3 logs", whisper=True).via == "whisper"
    command, exchange = chat.say("boss", "!goal get me 3 logs", records=2)
    assert isinstance(command, ChatCommand) and command.accepted and isinstance(exchange, GoalExchange)
    assert exchange.via == "command" and len(chat.goals) == 4


def test_part_understood_asks_back_and_runs_what_was_understood_on_yes(chat: Harness) -> None:
    asked = chat.goal("boss", f"scout, {PARTLY}")
    assert (asked.outcome, asked.understood, asked.not_understood) == ("asked", "get 3 oak logs", ["dance"])
    assert chat.bot.said[-1] == ASKED and chat.goals == []
    started = chat.goal("boss", "yes")  # in open chat, without the bot's name
    assert (started.outcome, started.said, started.goal) == ("started", "yes", "get 3 oak logs")
    assert chat.goals == ["get 3 oak logs"] and chat.bot.said[-1] == "new goal from boss: get 3 oak logs"


@pytest.mark.parametrize("yes", ["y", "ok", "go", "sure", "Yes!", "ok go ahead"])
def test_each_way_of_saying_yes_runs_it(chat: Harness, yes: str) -> None:
    chat.goal("boss", PARTLY, whisper=True)
    assert chat.goal("boss", yes, whisper=True).outcome == "started" and chat.goals == ["get 3 oak logs"]


def test_a_new_wording_is_read_again_and_may_be_asked_about_again(chat: Harness) -> None:
    chat.goal("boss", f"scout, {PARTLY}")
    again = chat.goal("boss", "get 3 oak logs and build a shed")  # open chat: a wording that reads
    assert again.outcome == "asked" and "'build a shed'" in chat.bot.said[-1] and chat.goals == []
    started = chat.goal("boss", "scout, get me 3 logs")
    assert started.outcome == "started" and chat.goals == ["get me 3 logs"]
    chat.said_nothing_to("boss", "yes")  # the question was replaced, then answered by the goal: yes is talk


def test_talk_while_a_question_waits_is_not_an_answer(chat: Harness) -> None:
    chat.goal("boss", f"scout, {PARTLY}")
    chat.said_nothing_to("boss", "brb, dinner")  # said to someone else: the question still waits
    chat.said_nothing_to("chief", "yes")  # another player's yes is not boss's
    assert chat.goal("boss", "yes").outcome == "started" and chat.goals == ["get 3 oak logs"]


def test_no_answer_in_time_drops_it_and_says_so(chat: Harness) -> None:
    chat.goal("boss", PARTLY, whisper=True)
    chat.clock.now += ANSWER_WAIT_S - 1
    chat.said_nothing_to("chief", "hello")  # not yet
    chat.clock.now += 2
    dropped = chat.wait()
    assert (dropped.outcome, dropped.via, dropped.said, dropped.understood) == ("timed_out", "clock", "", "get 3 oak logs")
    assert chat.bot.said[-1] == "boss: no answer in 60 s: I'm not doing it"
    late = chat.goal("boss", "yes", whisper=True)  # too late: read as a goal of its own
    assert late.outcome == "not_understood" and chat.goals == []
    assert chat.bot.said[-1] == "boss: I don't understand 'yes'"


def test_no_drops_it(chat: Harness) -> None:
    chat.goal("boss", PARTLY, whisper=True)
    declined = chat.goal("boss", "no thanks")
    assert declined.outcome == "declined" and chat.bot.said[-1] == "boss: ok, I'm not doing it" and chat.goals == []


def test_nothing_understood_is_said_and_nothing_done(chat: Harness) -> None:
    said = chat.goal("boss", "scout, tell me a joke")
    assert (said.outcome, said.not_understood) == ("not_understood", ["tell me a joke"])
    assert chat.bot.said[-1] == "boss: I don't understand 'tell me a joke'" and chat.goals == []
    chat.said_nothing_to("boss", "yes")  # nothing was asked


def test_a_stranger_s_whisper_or_call_is_ignored_and_recorded(chat: Harness) -> None:
    for line, whisper in ((PARTLY, True), (f"scout, {PARTLY}", False)):
        refused = chat.goal("stranger", line, whisper=whisper)
        assert (refused.outcome, refused.reason, refused.said) == ("refused", "not on the chat allowlist", PARTLY)
    assert chat.bot.said == [] and chat.goals == []
    chat.said_nothing_to("stranger", "scouting is fun")  # not the bot's name


def test_a_teammate_s_ask_is_not_a_goal(chat: Harness) -> None:
    refused = chat.goal("scout2", "please give me 2 iron_ingot", whisper=True)
    assert (refused.outcome, refused.reason) == ("refused", "not on the chat allowlist")
    assert chat.bot.said == [] and chat.goals == []


def test_team_bots_are_never_on_each_other_s_allowlist() -> None:
    team = Team.of(2, "scout", "craft shears")
    config = AgentConfig(chat_allowlist=["boss", "Scout2"], username="scout")
    assert AgentConfig().chat_allowlist == []  # by default nobody is
    for bot in team.bots:
        assert _own_config(config, bot.name, "scripted:x.py", team).chat_allowlist == ["boss"]


def test_goals_said_in_chat_wait_for_the_secret_like_commands() -> None:
    harness = Harness(secret="blue-heron-42", secret_required=True)
    try:
        refused = harness.goal("boss", "get me 3 logs", whisper=True)
        assert (refused.outcome, refused.reason) == ("refused", "secret not said") and harness.goals == []
        assert harness.bot.said[-1] == "boss: whisper the secret first: /tell scout !auth <secret>"
        assert harness.say("boss", "!auth blue-heron-42", whisper=True)[0].accepted
        assert harness.goal("boss", "get me 3 logs", whisper=True).outcome == "started"
    finally:
        harness.commander.close()


def test_a_reader_that_fails_leaves_the_words_not_understood_and_chat_going() -> None:
    def broken(words: str) -> Reading:
        raise ValueError("bad")

    bot, heard = FakeBot("scout"), queue.Queue()
    commander = ChatCommander(bot, ["boss"], on_stop=print, on_goal=print, status=str, on_event=heard.put, read=broken)
    try:
        bot.events.push(BotEvent(kind="whisper", time=time.time(), username="boss", message="dig"))
        failed = heard.get(timeout=HANDLED_S)
        assert (failed.outcome, failed.reason) == ("not_understood", "ValueError: bad")
        bot.events.push(BotEvent(kind="chat", time=time.time(), username="boss", message="!status"))
        assert heard.get(timeout=HANDLED_S).accepted
    finally:
        commander.close()


def test_the_real_reader_without_a_world_says_what_it_read() -> None:
    read = chat_reader(None, "1.20.4")
    whole = read("get 3 oak logs")
    assert (whole.extent, whole.understood) == ("all", "get 3 oak logs")
    assert read("tell me a joke").extent == "nothing"


def test_a_sub_goal_grounding_left_out_is_not_understood_here() -> None:
    def sub(says: str) -> SubGoal:
        return SubGoal(says=says, check={"sky_visible": True})

    logs, carry, store, follow = sub("get logs"), sub("carry what goes in the chest (put it away)"), \
        sub("put it away"), sub("stick with alex")
    assert left_out_of([logs, follow], [logs]) == [follow]
    assert left_out_of([logs, carry, store], [logs]) == [store]  # the carrying is the storing's
    assert left_out_of([logs, store], [logs, store]) == []


def test_questions_wait_per_player_until_their_deadline() -> None:
    clock = FakeClock()
    questions = Questions(clock, wait_s=10)
    reading = fake_read(PARTLY)
    questions.ask("boss", reading)
    clock.now += 5
    questions.ask("chief", reading)
    assert questions.waiting("boss") and questions.expired() == []
    clock.now += 5
    assert questions.waiting("boss") is None and questions.take("boss") is None  # gone, for expired() to say
    assert [q.player for q in questions.expired()] == ["boss"] and questions.expired() == []
    assert questions.take("chief").reading == reading and questions.waiting("chief") is None


def test_what_answers_a_question_and_what_names_the_bot() -> None:
    assert [reply_to_question(t) for t in ("yes", "Y", "ok!", "go ahead", "sure, thanks", "no", "never mind",
                                           "go to the water", "yes no", "")] == \
        ["yes", "yes", "yes", "yes", "yes", "no", "no", None, None, None]
    assert addressed("scout, get me 3 logs", "scout") == "get me 3 logs"
    assert addressed("Scout: get me 3 logs", "scout") == "get me 3 logs"
    assert addressed("@scout get me 3 logs", "scout") == "get me 3 logs"
    assert addressed("scouting is fun", "scout") is None and addressed("scout", "scout") is None
    assert addressed("hey scout, get logs", "scout") is None


def test_replay_shows_each_turn_and_what_it_started() -> None:
    asked = ChatGoal(player="boss", said=PARTLY, via="chat", outcome="asked", understood="get 3 oak logs",
                     not_understood=["dance"], reply=ASKED)
    started = ChatGoal(player="boss", said="yes", via="chat", outcome="started", understood="get 3 oak logs",
                       reply="new goal from boss: get 3 oak logs", goal="get 3 oak logs")
    dropped = ChatGoal(player="boss", via="clock", outcome="timed_out", reply="boss: no answer in 60 s: I'm not doing it")
    assert [line.plain for event in (asked, started, dropped) for line in render(event)] == [
        f'chat goal from boss (chat): "{PARTLY}" -> asked: {ASKED}',
        'chat goal from boss (chat): "yes" -> started: get 3 oak logs',
        "chat goal from boss (clock): no answer -> timed out: boss: no answer in 60 s: I'm not doing it",
    ]
