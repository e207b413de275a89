"""The examples in README.md and docs/ run as written and print what they say, the
README's Layout names what is there, and the files and tests the documents name exist."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from companion import i18n

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def examples(document: Path) -> doctest.DocTest:
    """The ``>>>`` examples of a Markdown document; a code fence ends an example's output
    (line numbers kept, so a failure names the document's own line)."""
    text = re.sub(r"^```.*$", "", document.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return doctest.DocTestParser().get_doctest(text, {}, document.name, str(document), 0)


@pytest.fixture
def english():
    """The examples show the English sentences."""
    before = i18n.language()
    i18n.set_language("en")
    yield
    i18n.set_language(before)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_examples_print_what_the_text_shows(document: Path, english):
    runner = doctest.DocTestRunner()
    runner.run(examples(document))
    assert runner.summarize(verbose=False).failed == 0, f"an example in {document.name} printed something else (see above)"


def test_the_readme_shows_the_rules_engine_at_work():
    """The README's example is there to be run and checked: it cannot pass by being empty."""
    shown = examples(ROOT / "README.md").examples
    assert any("rules.get(" in example.source for example in shown)
    assert sum(bool(example.want.strip()) for example in shown) >= 3


def layout() -> list[str]:
    """The paths the README's Layout table names in its first column."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return [path for row in rows for path in re.findall(r"`([^`]+)`", row)]


def test_the_readme_layout_names_paths_that_exist_and_every_part_of_the_package():
    named = layout()
    assert [path for path in named if not (ROOT / path).exists()] == []
    parts = {
        f"companion/{entry.name}{'/' if entry.is_dir() else ''}"
        for entry in (ROOT / "companion").iterdir()
        if entry.name not in {"__init__.py", "__pycache__"}
    }
    assert sorted(parts - set(named)) == []


DEFINED_TESTS = {
    name
    for path in (ROOT / "tests").rglob("*.py")
    for name in re.findall(r"^\s*(?:async )?def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_tests_a_document_names_exist_where_it_says(document: Path):
    """docs/security.md names the test behind each promise: a test renamed or removed would
    leave a promise that nothing checks."""
    text = document.read_text(encoding="utf-8")
    named = set(re.findall(r"`(?:tests/[\w/.]+\.py::)?(test_\w+)(?:\[[^\]`]*\])?`", text))
    assert sorted(named - DEFINED_TESTS) == []
    for path, name in re.findall(r"`(tests/[\w/.]+\.py)::(test_\w+)", text):
        assert re.search(rf"def {name}\b", (ROOT / path).read_text(encoding="utf-8")), f"{name} is not in {path}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_files_a_document_names_exist(document: Path):
    """A path in backticks under one of the repository's folders is there (a pattern, with
    ``*`` or ``<...>`` in it, is not a path)."""
    named = re.findall(r"`((?:companion|bench|tests|scripts|docs|assets|\.ci)/[^`\s:]*)", document.read_text(encoding="utf-8"))
    assert [path for path in named if not re.search(r"[*<]", path) and not (ROOT / path).exists()] == []
