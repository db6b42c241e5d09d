"""Loading tool folders: every source, one error per bad file, duplicates, and no code imported."""

from __future__ import annotations

import sys

from agent.paths import WORLD_TOOLS_DIR
from agent.tools import ToolSource, ToolSpec, load_toolbox, standard_sources
from agent.tools.loader import CORE_TOOLS_DIR
from agent.tools.primitives import PRIMITIVES
from tool_testing import FIXTURE_TOOLS, FIXTURES, MIXED_TOOLS, fixture_toolbox


def test_fixture_tools_and_every_primitive_load_cleanly():
    box = fixture_toolbox()
    assert box.errors == []
    assert {"explore-area", "explore-terrain", "echo-args", "summarize", "mining-tips"} <= set(box.tools)
    assert {name for name, spec in box.tools.items() if spec.source == "core"} == set(PRIMITIVES)


def test_every_core_tool_is_a_primitive_named_after_its_folder_with_a_schema():
    box = load_toolbox([ToolSource(label="core", folder=CORE_TOOLS_DIR)])
    folders = sorted(p.name for p in CORE_TOOLS_DIR.iterdir() if p.is_dir() and not p.name.startswith("_"))
    assert sorted(box.tools) == folders == sorted(PRIMITIVES)
    for spec in box.tools.values():
        assert spec.type == "primitive" and spec.path.parent.name == spec.name
        assert spec.schema_hint is not None and spec.schema_hint.properties, spec.name


def test_one_malformed_skill_among_good_ones():
    box = load_toolbox([ToolSource(label="skills", folder=MIXED_TOOLS)])
    assert sorted(box.tools) == ["alpha-tips", "zeta-tips"]
    assert [str(e) for e in box.errors] == [
        f"{MIXED_TOOLS / 'broken' / 'Skill.md'}:5: unknown key 'colour' (accepted: name, type, description, "
        "when_to_use, examples, resumable, invalidates, hidden, max_steps, timeout_s, slots, outputs, complete_when, "
            "needs, achieves, schema_hint)"
    ]


def test_a_duplicate_name_is_an_error_naming_both_paths(tmp_path):
    clash = tmp_path / "mining-tips"
    clash.mkdir()
    (clash / "SKILL.md").write_text('---\nname: mining-tips\ntype: instruction\ndescription: "again"\n---\nAgain.\n')
    box = load_toolbox(
        [ToolSource(label="skills", folder=FIXTURE_TOOLS), ToolSource(label="skills", folder=tmp_path)]
    )
    assert box.tools["mining-tips"].path == FIXTURE_TOOLS / "mining-tips" / "Skill.md"
    [error] = box.errors
    assert str(clash / "SKILL.md") in str(error) and str(FIXTURE_TOOLS / "mining-tips" / "Skill.md") in str(error)


def test_a_user_tool_cannot_shadow_a_primitive(tmp_path):
    (tmp_path / "say").mkdir()
    (tmp_path / "say" / "Skill.md").write_text('---\nname: say\ntype: instruction\ndescription: "mine"\n---\nMine.\n')
    box = load_toolbox(standard_sources("minecraft", [], extra=[tmp_path]))
    assert box.tools["say"].source == "core"
    assert "already defined by" in str(box.errors[0]) and str(CORE_TOOLS_DIR / "say" / "Skill.md") in str(box.errors[0])


def test_standard_sources_order_and_folders(tmp_path):
    sources = standard_sources("minecraft", [tmp_path.name], base=tmp_path.parent, extra=[FIXTURE_TOOLS])
    assert [(s.label, s.folder, s.required) for s in sources] == [
        ("core", CORE_TOOLS_DIR, True),
        ("minecraft", WORLD_TOOLS_DIR / "minecraft", False),
        ("skills", tmp_path, False),
        ("skills", FIXTURE_TOOLS, True),
    ]


def test_the_same_folder_twice_is_scanned_once():
    sources = standard_sources("minecraft", [FIXTURE_TOOLS], extra=[FIXTURE_TOOLS])
    assert [s.folder for s in sources].count(FIXTURE_TOOLS) == 1


def test_missing_folders_are_skipped_unless_named_on_the_command_line(tmp_path):
    box = load_toolbox(standard_sources("no-such-world", [tmp_path / "absent"], extra=[tmp_path / "gone"]))
    assert [str(e) for e in box.errors] == [f"{tmp_path / 'gone'}: tools folder does not exist"]
    assert len(box.tools) == len(PRIMITIVES)


def test_loading_imports_no_tool_code_and_specs_serialize():
    before = set(sys.modules)
    box = load_toolbox([ToolSource(label="skills", folder=FIXTURES / "import-guard")])
    assert box.errors == [] and box.tools["loud"].type == "python"
    assert set(sys.modules) == before
    spec = box.tools["loud"]
    assert ToolSpec.model_validate_json(spec.model_dump_json()) == spec


def test_an_unreadable_file_is_one_error(tmp_path):
    (tmp_path / "binary").mkdir()
    (tmp_path / "binary" / "Skill.md").write_bytes(b"\xff\xfe\x00bad")
    box = load_toolbox([ToolSource(label="skills", folder=tmp_path)])
    assert len(box.errors) == 1 and "cannot read" in str(box.errors[0])


def test_a_core_skill_md_without_a_primitive_is_one_load_error(tmp_path):
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "Skill.md").write_text("---\nname: probe\ntype: primitive\ndescription: d\n---\n")
    box = load_toolbox([ToolSource(label="core", folder=tmp_path)])
    assert box.tools == {}
    assert [str(e) for e in box.errors] == [f"{folder / 'Skill.md'}: primitive 'probe' has no implementation"]
