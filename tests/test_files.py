"""`files.write_atomic`, which writes traces, reports, formatted card files and verify's
failures: the permissions an ordinary write would leave, links kept, the old file intact when
the write fails."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.files import FileProblem, write_atomic

posix_only = pytest.mark.skipif(not hasattr(os, "fchmod"), reason="POSIX permission bits")


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@posix_only
def test_a_new_file_gets_what_the_umask_allows(tmp_path, umask_022):
    target = tmp_path / "report.html"
    write_atomic(target, "<p>hi</p>\n")
    assert target.read_text() == "<p>hi</p>\n"
    assert mode(target) == 0o644   # not 0o600, as a temporary file is made


@posix_only
def test_another_umask_is_followed_too(tmp_path):
    old = os.umask(0o077)
    try:
        write_atomic(tmp_path / "private.json", "{}\n")
    finally:
        os.umask(old)
    assert mode(tmp_path / "private.json") == 0o600


@posix_only
@pytest.mark.parametrize("kept", [0o640, 0o755, 0o664])
def test_a_file_written_over_keeps_its_permissions(tmp_path, umask_022, kept):
    target = tmp_path / "cards.rules"
    target.write_text("old\n")
    os.chmod(target, kept)
    write_atomic(target, "new\n")
    assert target.read_text() == "new\n"
    assert mode(target) == kept


@posix_only
def test_a_link_stays_a_link_to_the_new_text(tmp_path):
    real = tmp_path / "real.rules"
    real.write_text("old\n")
    link = tmp_path / "link.rules"
    link.symlink_to(real)
    write_atomic(link, "new\n")
    assert link.is_symlink()
    assert real.read_text() == "new\n"


def test_no_temporary_file_is_left_behind(tmp_path):
    write_atomic(tmp_path / "a.json", "1\n")
    write_atomic(tmp_path / "a.json", "2\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "a.json"
    target.write_text("old\n")

    def refuse(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", refuse)
    with pytest.raises(FileProblem, match="No space left on device"):
        write_atomic(target, "new\n")
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


@posix_only
def test_fmt_leaves_a_card_file_as_readable_as_it_was(tmp_path, umask_022):
    card = tmp_path / "one.rules"
    card.write_text('card "Lumber Yard" {\n  age 1\n      color brown\n produce wood\n}\n')
    os.chmod(card, 0o664)
    before = card.read_text()
    result = CliRunner().invoke(cli, ["fmt", str(card)])
    assert result.exit_code == 0, result.output
    assert card.read_text() != before   # (formatted: so it was written)
    assert mode(card) == 0o664
