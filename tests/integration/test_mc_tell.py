"""mc-tell on the real server, and the inbox it fills: a whisper reaches its addressee's inbox
alone (a third player's stays empty, the teller's holds neither its own line nor the server's
"You whispered"), a line said in chat reaches every other player's, each is read once, and a
name not online fails not_found, nothing sent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.bridge import BotConnection, connect
from agent.chat.team import BotTeam, Message
from agent.server.scenario import Scenario, Spawn
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body

FIELD = Scenario(name="tell", description="a flat field", spawn=Spawn(x=0.5, y=5, z=0.5, facing="south"))
ASK = "please give me 1 iron_ingot"


@pytest.fixture(scope="module")
def teller(toolbox: Toolbox) -> Iterator[Body]:
    yield from scenario_body(FIELD, "teller", toolbox)


def _heard(bot: BotConnection, kept: list[Message]) -> list[Message]:
    """What the bot's inbox held since the last reading, added to `kept` (read once: kept here)."""
    kept += BotTeam(lambda: bot).unread()
    return kept


def _said(messages: list[Message]) -> list[tuple[str, str, bool]]:
    return [(m.player, m.text, m.whispered) for m in messages]


def test_a_whisper_reaches_its_addressee_alone_and_a_chat_line_every_other_player(teller: Body) -> None:
    with connect(port=teller.bot.port, username="hearer") as hearer, \
            connect(port=teller.bot.port, username="bystander") as bystander:
        # the tab list: a name not in it is refused, nothing sent, so the first success is the one line
        told = wait_for(lambda: teller.call("mc-tell", player="hearer", text=ASK).ok)
        assert told
        heard: list[Message] = []
        assert wait_for(lambda: _heard(hearer, heard)), "the whisper never reached the hearer's inbox"
        assert _said(heard) == [("teller", ASK, True)]
        teller.bot.chat("hello all")
        assert wait_for(lambda: _heard(hearer, heard)[1:])
        assert _said(heard) == [("teller", ASK, True), ("teller", "hello all", False)]
        assert _said(BotTeam(lambda: hearer).unread()) == []  # read once
        assert _said(wait_for(lambda: BotTeam(lambda: bystander).unread())) == [("teller", "hello all", False)]
        assert _said(BotTeam(lambda: teller.bot).unread()) == []  # not its own lines, nor the server's


def test_a_name_not_online_fails_not_found(teller: Body) -> None:
    nobody = teller.call("mc-tell", player="nobody", text="hi")
    assert nobody.code == "not_found" and "no player named nobody is online" in nobody.reason
