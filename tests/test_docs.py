"""The documentation: the site builds with ``mkdocs build --strict`` (no warning, no broken link or anchor, no page
left out of the navigation), the README's links lead to pages and headings that exist, and the README stays the
front door: short, with every command of the CLI in its table."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
import yaml

from footnote_pg.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once with --strict into a temporary directory."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True, timeout=240)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "WARNING" not in said, said
    return out


def test_the_site_builds_strict_with_every_page(site: Path) -> None:
    pages = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").glob("*.md"))
    built = [page for page in pages if (site / (page.removesuffix(".md") + "/index.html")).exists()
             or (page == "index.md" and (site / "index.html").exists())]
    assert built == pages


def _nav_files(entries: list[object]) -> list[str]:
    files: list[str] = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        files += _nav_files(value) if isinstance(value, list) else [str(value)]
    return files


def test_every_page_is_in_the_nav_once_and_omissions_fail_the_build() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = _nav_files(config["nav"])
    assert sorted(nav) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert len(nav) == len(set(nav))
    assert config["theme"]["name"] == "material"
    assert config["validation"]["nav"]["omitted_files"] == "warn"  # a warning, so --strict fails on it
    assert config["validation"]["links"]["anchors"] == "warn"


def test_the_readme_links_lead_to_pages_and_headings_that_exist(site: Path) -> None:
    links = re.findall(r"\]\((docs/[^)#]+)(?:#([^)]+))?\)", README)
    assert len(links) >= 30
    broken = []
    for target, anchor in links:
        if not (ROOT / target).is_file():
            broken.append(target)
            continue
        page = Path(target).relative_to("docs").with_suffix("")
        html = site / ("index.html" if page.name == "index" else f"{page}/index.html")
        if anchor and f'id="{anchor}"' not in html.read_text(encoding="utf-8"):
            broken.append(f"{target}#{anchor}")
    assert broken == []


def test_the_readme_is_the_front_door() -> None:
    assert len(README.splitlines()) <= 300
    for heading in ("## Quick start", "## What you see", "### Database administrators", "### Auditors",
                    "### Agent developers", "### Python developers", "## Command line"):
        assert f"\n{heading}" in README, heading


def _commands(group: object, prefix: str) -> list[str]:
    names = []
    for name, command in getattr(group, "commands", {}).items():
        if getattr(command, "hidden", False):
            continue
        names += _commands(command, f"{prefix} {name}") if hasattr(command, "commands") else [f"{prefix} {name}"]
    return names


def test_the_readme_command_table_names_every_command() -> None:
    table = README[README.index("## Command line"):]
    commands = _commands(typer.main.get_command(app), "footnote-pg")
    assert len(commands) >= 18
    missing = [c for c in commands if f"| `{c}" not in table]
    assert missing == []
