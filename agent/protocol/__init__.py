"""The language of method protocols: a `type: method` Skill.md body parsed into typed steps,
branches, outcomes and state (method_protocol.py, protocol_rules.py, models.py), with conditions
and state updates in a small expression language (expressions.py). It imports nothing of the
tools that use it."""
