"""The scripted backend through real SGLang programs: stop strings, select, scripts, usage."""

from __future__ import annotations

import pytest
import sglang as sgl

from agent.errors import ConfigError
from agent.llm import LlmError
from agent.llm.scripted import ScriptedBackend, load_script


@sgl.function
def ask(s):
    s += sgl.user("Pick a direction.")
    s += sgl.assistant("THOUGHTS: " + sgl.gen("thoughts", stop=["\n", "TOOL_NAME"]) + "\nTOOL_NAME: "
                       + sgl.select("tool", choices=["mc-look", "mc-move", "mc-observe-blocks"]))


def run(backend):
    return ask.run(backend=backend, use_thread=False)


def test_replies_are_cut_at_the_first_stop_string_and_select_lands_on_a_choice():
    backend = ScriptedBackend(["turn north TOOL_NAME: mc-look\nmore", "mc-observe"])
    state = run(backend)
    assert state["thoughts"] == "turn north "
    assert state["tool"] == "mc-observe-blocks"  # the choice the reply begins
    gen_call, select_call = backend.calls
    assert gen_call.stop == ["\n", "TOOL_NAME"] and gen_call.reply == "turn north TOOL_NAME: mc-look\nmore"
    assert select_call.choices == ["mc-look", "mc-move", "mc-observe-blocks"]
    assert select_call.prompt.endswith("TOOL_NAME: ") and select_call.prompt.startswith(gen_call.prompt)


def test_a_select_reply_that_nearly_spells_a_choice_lands_on_it():
    backend = ScriptedBackend(["t", "mc-mvoe"])
    assert run(backend)["tool"] == "mc-move"


def test_an_empty_or_garbage_select_reply_lands_on_no_choice():
    """It used to land on the most similar choice, so "" became the first one: a DONE "yes"."""
    for reply in ("", "   ", "move please", "\x00\ud800"):
        assert run(ScriptedBackend(["t", reply]))["tool"] not in ("mc-look", "mc-move", "mc-observe-blocks")


def test_a_callable_script_sees_every_call():
    seen = []

    def reply(call):
        seen.append(call.kind)
        return "mc-look" if call.kind == "select" else "look"

    state = run(ScriptedBackend(reply))
    assert seen == ["gen", "select"] and state["tool"] == "mc-look"


def test_an_exhausted_script_is_an_llm_error():
    with pytest.raises(LlmError, match="the script has 1 replies and call 2 wants another"):
        run(ScriptedBackend(["t"]))


def test_usage_counts_calls_and_what_a_prefix_cache_would_have_spared():
    backend = ScriptedBackend(["t", "mc-look", "t", "mc-look"])
    run(backend)
    first = backend.usage.model_copy()
    run(backend)
    assert backend.usage.calls == 4 and first.calls == 2
    assert first.prefilled_tokens < first.prompt_tokens  # the select's prompt extends the gen's
    assert backend.usage.completion_tokens >= 0 and backend.context_tokens > 0


def test_complete_serves_llm_tools():
    backend = ScriptedBackend(["a short summary\nignored"])
    assert backend.complete("Summarize: ...", stop=["\n"]) == "a short summary"
    assert backend.calls[0].prompt.endswith("USER:Summarize: ...\nASSISTANT:")


def test_scripts_load_from_yaml_json_and_python(tmp_path):
    listed = tmp_path / "replies.yaml"
    listed.write_text("- hello\n- mc-look\n")
    assert load_script(listed).capabilities.select is True
    mapping = tmp_path / "free.json"
    mapping.write_text('{"replies": ["x"], "constrained": false}')
    loose = load_script(mapping)
    assert loose.capabilities.select is False and loose.capabilities.json_schema is False
    code = tmp_path / "policy.py"
    code.write_text("CONSTRAINED = False\n\ndef reply(call):\n    return 'mc-move'\n")
    policy = load_script(code)
    assert policy.capabilities.select is False and policy.complete("go") == "mc-move"


@pytest.mark.parametrize(("name", "text", "problem"), [
    ("missing.yaml", None, "does not exist"),
    ("bad.yaml", "replies: [1, 2]", "expected a list of reply strings"),
    ("broken.yaml", "- [", "broken.yaml"),
    ("empty.py", "X = 1\n", "defines no reply(call)"),
])
def test_bad_scripts_are_config_errors(tmp_path, name, text, problem):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(ConfigError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        load_script(path)
