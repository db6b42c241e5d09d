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
from llama_cpp.llama_grammar import PRIMITIVE_RULES, RESERVED_NAMES, SchemaConverter, _build_repetition

from agent.llm.gbnf_ranges import integer_range, number_range

_ALL_TYPES = ["object", "array", "string", "number", "boolean", "null"]
_LIMITS = ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems")
# Tools' argument schemas are few and the planner decodes the same ones over and over.
CACHED_GRAMMARS = 256


@functools.lru_cache(maxsize=CACHED_GRAMMARS)
def grammar_for(schema: str) -> LlamaGrammar:
    """The grammar for a JSON schema given as text. A LlamaGrammar holds only its text (llama.cpp
    parses it afresh for each completion), so one can serve every call."""
    converter = BoundedSchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    converter.visit(converter.resolve_refs(json.loads(schema), "schema"), "")
    return LlamaGrammar.from_string(converter.format_grammar(), verbose=False)


@functools.lru_cache(maxsize=CACHED_GRAMMARS)
def grammar_for_pattern(pattern: str) -> LlamaGrammar:
    """The grammar for a regular expression (the subset the stock converter reads: classes,
    groups, alternatives, repetitions), matched whole, without JSON quotes."""
    converter = SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=True)
    converter.visit({"type": "string", "pattern": f"^{pattern}$"}, "")
    return LlamaGrammar.from_string(converter.format_grammar(), verbose=False)


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
