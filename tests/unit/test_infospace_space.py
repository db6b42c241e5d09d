"""References and $name bindings: plan scopes, the session scope, and persisted names."""

from __future__ import annotations

import pytest

from agent.infospace import Infospace, InfospaceError, default_db_path


@pytest.fixture
def space():
    s = Infospace.open(":memory:")
    s.store.create_note("a note")
    s.store.create_collection([1])
    yield s
    s.close()


def test_references_by_id_and_by_name(space):
    space.bind("first", "Note_1")
    assert space.resource("Note_1").content == "a note"
    assert space.note("$first").name == "first"
    assert space.collection("Collection_1").note_ids == ("Note_1",)


@pytest.mark.parametrize(
    ("ref", "code"),
    [("Note_7", "not_found"), ("note_1", "bad_ref"), ("Note_01", "bad_ref"), ("$nobody", "not_found"), ("", "bad_ref")],
)
def test_bad_references_say_what_is_wrong(space, ref, code):
    with pytest.raises(InfospaceError) as e:
        space.resource(ref)
    assert e.value.code == code


def test_a_note_is_not_a_collection(space):
    with pytest.raises(InfospaceError, match="a collection is needed") as e:
        space.collection("Note_1")
    assert e.value.code == "wrong_kind"
    with pytest.raises(InfospaceError, match="a note is needed"):
        space.note("Collection_1")


def test_plan_scope_bindings_end_with_the_plan(space):
    with space.plan_scope():
        space.bind("tmp", "Note_1")
        with space.plan_scope():
            assert space.lookup("tmp") == "Note_1"
            space.bind("tmp", "Collection_1")
            assert space.lookup("tmp") == "Collection_1"
        assert space.lookup("tmp") == "Note_1"
    with pytest.raises(InfospaceError, match=r"\$tmp is not bound"):
        space.lookup("tmp")


def test_persisted_names_outlive_the_plan_and_a_reopen(tmp_path):
    path = tmp_path / "infospace.db"
    space = Infospace.open(path)
    space.store.create_note({"x": 1})
    with space.plan_scope():
        space.bind("spot", "Note_1")
        space.persist("spot")
    space.close()
    again = Infospace.open(path)
    assert again.note("$spot").content == {"x": 1}
    again.close()


def test_binding_names_are_checked(space):
    with pytest.raises(InfospaceError, match="binding name"):
        space.bind("two words", "Note_1")


def test_default_database_is_per_agent_under_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path("miner") == tmp_path / "mcagent" / "agents" / "miner" / "infospace.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path("miner").parts[-6:] == (".local", "share", "mcagent", "agents", "miner", "infospace.db")
