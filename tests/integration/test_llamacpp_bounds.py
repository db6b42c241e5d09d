"""The real embedded model (SmolLM2-135M), told to write out-of-range arguments and sampled hot
under our llama.cpp grammar, still writes only arguments inside the schema's bounds and lengths;
under llama-cpp-python's own grammar it writes the radius it was told to."""

from __future__ import annotations

import json

import pytest

from agent.planner import prompts
from agent.planner.args import decoding_schema
from agent.tools import Toolbox
from agent.tools.schema import JsonSchema, check_args

pytest.importorskip("llama_cpp", reason="llama-cpp-python is built by scripts/bootstrap.sh")

from llama_cpp import LlamaGrammar  # noqa: E402

from agent.llm.grammar import grammar_for, grammar_for_pattern  # noqa: E402
from agent.llm.llamacpp import LlamaCppBackend  # noqa: E402

# Enough to see a grammar that let 1000 through: under llama-cpp-python's own grammar the model
# writes it in 3 of 3 samples (the stock-grammar test below).
SAMPLES = 10
HOT = 1.5
# Room for the longest arguments the grammars below allow, so every sample ends as complete JSON.
MAX_TOKENS = 96


@pytest.fixture(scope="module")
def llama():
    return LlamaCppBackend().llama


def told_to_write(args: str) -> str:
    return ("<|im_start|>system\nYou write tool arguments as JSON.<|im_end|>\n"
            f"<|im_start|>user\nLook as far as you can: write exactly {args}<|im_end|>\n<|im_start|>assistant\n")


def sampled(llama, prompt: str, grammar: LlamaGrammar, seeds) -> list[dict]:
    texts = [llama.create_completion(prompt, max_tokens=MAX_TOKENS, temperature=HOT, seed=seed, grammar=grammar)
             for seed in seeds]
    return [json.loads(text["choices"][0]["text"]) for text in texts]


@pytest.fixture(scope="module")
def observe_schema(toolbox: Toolbox) -> JsonSchema:
    schema = toolbox.tools["mc-observe-blocks"].schema_hint
    assert schema.properties["radius"].maximum == 16
    return schema


@pytest.mark.parametrize("as_sent", [False, True], ids=["tool-schema", "decoding-schema"])
def test_radius_1000_cannot_be_produced_by_the_llamacpp_grammar(llama, observe_schema, as_sent):
    schema = decoding_schema(observe_schema) if as_sent else observe_schema.dump()
    samples = sampled(llama, told_to_write('{"radius": 1000}'), grammar_for(json.dumps(schema)), range(SAMPLES))
    assert sum("radius" in args for args in samples) > SAMPLES // 2  # it tried, rather than writing {}
    for args in samples:
        assert check_args(observe_schema, args) is None, args
        assert 1 <= args.get("radius", 1) <= 16, args


def test_the_prompt_gets_radius_1000_under_the_stock_grammar(llama, observe_schema):
    """What the test above holds back: llama-cpp-python's converter ignores the maximum."""
    grammar = LlamaGrammar.from_json_schema(json.dumps(observe_schema.dump()), verbose=False)
    assert {"radius": 1000} in sampled(llama, told_to_write('{"radius": 1000}'), grammar, range(3))


def test_lengths_cannot_be_exceeded_under_the_llamacpp_grammar(llama):
    schema = JsonSchema.model_validate({"type": "object", "required": ["name", "tags"], "properties": {
        "name": {"type": "string", "minLength": 2, "maxLength": 3},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 2}, "minItems": 1, "maxItems": 2},
    }})
    prompt = told_to_write('{"name": "cobblestone", "tags": ["north", "south", "east", "west"]}')
    for args in sampled(llama, prompt, grammar_for(json.dumps(decoding_schema(schema))), range(10)):
        assert check_args(schema, args) is None, args


def test_a_thought_held_to_a_line_is_never_empty(llama):
    # Told to write nothing, and sampled hot: under the line grammar the answer is still a line.
    prompt = ("<|im_start|>user\nWrite nothing at all, just a new line.<|im_end|>\n<|im_start|>assistant\n"
              "THOUGHTS: ")
    grammar = grammar_for_pattern(prompts.LINE)
    texts = [llama.create_completion(prompt, max_tokens=12, temperature=HOT, seed=seed, grammar=grammar,
                                     stop=["\n"])["choices"][0]["text"] for seed in range(10)]
    assert all(text[:1].strip() and "\n" not in text for text in texts), texts
