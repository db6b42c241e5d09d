"""The llama.cpp grammar for a JSON schema: bounded numbers get the gbnf_ranges rules wherever they
sit (a property, a list of types), untyped and item-less nodes convert, and grammars are cached."""

from __future__ import annotations

import json

import pytest

from support.gbnf import gbnf_regex

pytest.importorskip("llama_cpp", reason="llama-cpp-python is built by scripts/bootstrap.sh")

import llama_cpp  # noqa: E402

from agent.llm.grammar import grammar_for  # noqa: E402
from agent.llm.llamacpp import LlamaCppBackend  # noqa: E402
from agent.planner.args import decoding_schema  # noqa: E402
from agent.tools import load_toolbox, standard_sources  # noqa: E402


def rules(schema: dict) -> dict[str, str]:
    text = grammar_for(json.dumps(schema))._grammar
    return dict(line.split(" ::= ", 1) for line in text.splitlines())


def matching(rule: str, candidates) -> list:
    assert rule.endswith(" space")
    pattern = gbnf_regex(rule.removesuffix(" space"))
    return [c for c in candidates if pattern.fullmatch(json.dumps(c))]


def test_a_bounded_property_can_only_be_spelled_inside_its_bounds():
    schema = {"type": "object", "properties": {"radius": {"type": "integer", "minimum": 1, "maximum": 16}}}
    assert matching(rules(schema)["radius"], range(-2000, 2000)) == list(range(1, 17))


def test_a_list_of_types_keeps_the_bounds():
    schema = {"type": "object", "properties": {"pitch": {"type": ["number", "null"], "minimum": -90, "maximum": 90}}}
    grammar = rules(schema)
    assert grammar["pitch"] == "pitch-0 | null"
    values = [x / 4 for x in range(-1000, 1000)]
    assert matching(grammar["pitch-0"], values) == [v for v in values if -90 <= v <= 90]


def test_a_length_without_items_and_an_untyped_node_still_convert():
    schema = {"type": "object", "properties": {"tags": {"type": "array", "maxItems": 2}, "any": {"description": "x"}}}
    grammar = rules(schema)
    assert grammar["tags"] == '"[" space (value ("," space value)?)? "]" space'
    assert grammar["any"] == "value"


def test_an_untyped_node_with_a_bound_holds_it_for_numbers_only():
    grammar = rules({"type": "object", "properties": {"n": {"maximum": 3}}})
    assert grammar["n"] == "n-0 | n-1 | string | n-3 | boolean | null"
    values = [x / 4 for x in range(-100, 100)]
    assert matching(grammar["n-3"], values) == [v for v in values if v <= 3]


def parses_in_llama_cpp(vocab, grammar: str) -> bool:
    """llama.cpp parses a grammar only when a completion starts; this parses it now."""
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, grammar.encode(), b"root")
    if sampler:
        llama_cpp.llama_sampler_free(sampler)
    return bool(sampler)


def test_every_tool_grammar_and_every_kind_of_bound_parses_in_llama_cpp():
    vocab = LlamaCppBackend().llama._model.vocab
    toolbox = load_toolbox(standard_sources("minecraft", ["skills"]))
    schemas = [decoding_schema(spec.schema_hint) for spec in toolbox.tools.values()]
    schemas += [spec.schema_hint.dump() for spec in toolbox.tools.values() if spec.schema_hint]
    schemas += [{"type": kind, **bounds} for kind in ("integer", "number")
                for bounds in ({"minimum": 1}, {"maximum": -3}, {"minimum": -0.0625, "maximum": 1e4})]
    assert not parses_in_llama_cpp(vocab, 'root ::= ( "1" ')
    for schema in schemas:
        assert parses_in_llama_cpp(vocab, grammar_for(json.dumps(schema))._grammar), schema


def test_the_same_schema_text_gets_the_same_grammar():
    schema = json.dumps({"type": "object", "properties": {"x": {"type": "integer", "minimum": 0}}})
    assert grammar_for(schema) is grammar_for(schema)
