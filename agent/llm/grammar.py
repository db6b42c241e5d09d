"""JSON schema (or a regular expression) to llama.cpp grammar, with the bounds llama-cpp-python's
converter leaves out.

Its SchemaConverter (llama_cpp/llama_grammar.py, 0.3.36) ignores minimum/maximum: a model wrote
mc-observe-blocks {"radius": 1000} against maximum 16. This converter spells bounded integers and
numbers with gbnf_ranges, so an out-of-range value cannot be sampled. It also keeps the
constraints of a node with a list of types (the stock converter visits bare {"type": t} for each,
dropping bounds and lengths) and of an untyped node (which the stock converter cannot convert).
String lengths and array items it already honours (minLength/maxLength, minItems/maxItems).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from llama_cpp import LlamaGrammar
from llama_cpp.llama_grammar import PRIMITIVE_RULES, RESERVED_NAMES, BuiltinRule, SchemaConverter, _build_repetition

from agent.llm.gbnf_ranges import integer_range, number_range

_ALL_TYPES = ["object", "array", "string", "number", "boolean", "null"]
_LIMITS = ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems")
# A character of a JSON string. The stock rule, [^"\\], lets raw newlines and other control
# characters into strings, which JSON forbids: SmolLM2 wrote a NEXT_TASK of several lines
# that then did not parse. This is llama.cpp's own rule (json-schema-to-grammar).
JSON_CHAR = BuiltinRule(r'[^"\\\x7F\x00-\x1F] | [\\] (["\\bfnrt/] | "u" [0-9a-fA-F]{4})', [])
# Tools' argument schemas are few and the planner decodes the same ones over and over.
CACHED_GRAMMARS = 256


@functools.lru_cache(maxsize=CACHED_GRAMMARS)
def grammar_for(schema: str) -> LlamaGrammar:
    """The grammar for a JSON schema given as text. A LlamaGrammar holds only its text (llama.cpp
    parses it afresh for each completion), so one can serve every call."""
    return LlamaGrammar.from_string(gbnf_for(schema), verbose=False)


@functools.lru_cache(maxsize=CACHED_GRAMMARS)
def grammar_for_pattern(pattern: str) -> LlamaGrammar:
    return LlamaGrammar.from_string(gbnf_for_pattern(pattern), verbose=False)


@functools.lru_cache(maxsize=CACHED_GRAMMARS)
def gbnf_for(schema: str) -> str:
    """GBNF text for a JSON schema given as text: what a llama.cpp server takes as `grammar`."""
    converter = BoundedSchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    converter.visit(converter.resolve_refs(json.loads(schema), "schema"), "")
    return converter.format_grammar()


@functools.lru_cache(maxsize=CACHED_GRAMMARS)
def gbnf_for_pattern(pattern: str) -> str:
    """GBNF text for a regular expression (the subset the stock converter reads: classes,
    groups, alternatives, repetitions), matched whole, without JSON quotes."""
    converter = SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=True)
    converter.visit({"type": "string", "pattern": f"^{pattern}$"}, "")
    return converter.format_grammar()


def gbnf_choices(choices: list[str]) -> str:
    """GBNF text that allows exactly one of `choices`, written as is."""
    return "root ::= " + " | ".join(json.dumps(choice, ensure_ascii=False) for choice in choices) + "\n"


@functools.lru_cache(maxsize=CACHED_GRAMMARS)
def checked(text: str) -> str:
    """`text`, once llama.cpp's own parser has read it: a llama.cpp server that is sent a grammar
    it cannot parse crashes (llama-cpp-python 0.3.36 dies of SIGSEGV), so none leaves unread."""
    LlamaGrammar.from_string(text, verbose=False)  # raises ValueError on a grammar it cannot parse
    return text


class BoundedSchemaConverter(SchemaConverter):
    def visit(self, schema: dict[str, Any], name: str) -> str:
        kind = schema.get("type")
        if _untyped(schema):
            if any(key in schema for key in _LIMITS):  # each limit holds for the type it is about
                return self.visit({**schema, "type": _ALL_TYPES}, name)
            return self._add_rule(_rule_name(name), self._any_value())
        if "enum" in schema or "const" in schema:  # a list of values already holds every bound
            return super().visit(schema, name)
        if isinstance(kind, list):
            alternatives = [{**schema, "type": one} for one in kind]
            return self._add_rule(_rule_name(name), self._generate_union_rule(name, alternatives))
        if kind in ("integer", "number") and ("minimum" in schema or "maximum" in schema):
            spell = integer_range if kind == "integer" else number_range
            return self._add_rule(_rule_name(name), f"{spell(schema.get('minimum'), schema.get('maximum'))} space")
        if kind == "array" and not schema.get("items") and "prefixItems" not in schema:
            return self._add_rule(_rule_name(name), self._array_of_anything(schema))
        return super().visit(schema, name)

    def _add_primitive(self, name: str, rule: BuiltinRule) -> str:
        return super()._add_primitive(name, JSON_CHAR if name == "char" else rule)

    def _any_value(self) -> str:
        return self._add_primitive("value", PRIMITIVE_RULES["value"])

    def _array_of_anything(self, schema: dict[str, Any]) -> str:
        """The stock converter honours minItems/maxItems only with `items` (and fails on `items: {}`)."""
        items = _build_repetition(self._any_value(), schema.get("minItems", 0), schema.get("maxItems"),
                                  separator_rule='"," space')
        return f'"[" space {items} "]" space'


def _untyped(schema: dict[str, Any]) -> bool:
    """Any value: no type and nothing else that implies one."""
    implied = ("type", "enum", "const", "properties", "additionalProperties", "items", "prefixItems",
               "$ref", "anyOf", "oneOf", "allOf", "pattern", "format")
    return not any(key in schema for key in implied)


def _rule_name(name: str) -> str:
    """As SchemaConverter.visit names a node's rule: the root is "root", reserved names get a dash."""
    return name + "-" if name in RESERVED_NAMES else name or "root"
