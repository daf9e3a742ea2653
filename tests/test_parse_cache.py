"""The parse cache (rulesdsl/parse_cache.py) is never trusted over the card files: a damaged,
stale, planted or hostile entry (a FIFO, a link) only means parsing again; the folder is
private and bounded; `rulesdsl cache info|clear`."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl import loader, parse_cache
from rulesdsl.cli import cli
from rulesdsl.parser import parse_file
from rulesdsl.report import check_paths

CARDS = {
    "a.rules": 'card "Test Card" {\n    age 1\n    color brown\n    produce wood\n}\n',
    "b.rules": 'card "Test Shop" {\n    age 2\n    color yellow\n    cost 2 coins\n    gain 3 coins\n}\n',
}


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    return folder


@pytest.fixture
def content(tmp_path) -> Path:
    folder = tmp_path / "expansion"
    folder.mkdir()
    for name, text in CARDS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def result(folder: Path):
    report = check_paths([folder])
    return report.as_json(), report.human()


def entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if not p.name.startswith("."))


def entry_of(cache: Path, path: Path) -> Path:
    return cache / parse_cache.key(path)


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The files the loader had to parse (not found valid in the cache)."""
    seen: list[str] = []

    def counting(path, text):
        seen.append(path)
        return parse_file(path, text)
    monkeypatch.setattr(loader, "parse_file", counting)
    return seen


def test_entries_are_used_and_decode_to_the_parsed_tree(cache, content, parses):
    first = result(content)
    assert parses and len(entries(cache)) == len(parses)
    parses.clear()
    assert result(content) == first
    assert parses == []  # every file came from the cache
    path = content / "b.rules"
    data = path.read_bytes()
    text = data.decode()
    assert parse_cache.load(path, "shown.rules", data, text) == parse_file("shown.rules", text)[0]


def test_folder_is_private_and_an_open_one_is_made_private(cache, content):
    result(content)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in entries(cache))
    cache.chmod(0o755)
    result(content)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700


def _resign(raw: bytes, change) -> bytes:
    """An entry whose body was changed by `change` and whose checksum was recomputed, as
    someone planting an entry would."""
    body = json.loads(raw[len(parse_cache.MAGIC) + 32:])
    change(body)
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return parse_cache.MAGIC + hashlib.sha256(text).digest() + text


def _first(node, test):
    """The first list inside `node` (depth first) for which test(list) holds."""
    if isinstance(node, list):
        if test(node):
            return node
        for child in node:
            found = _first(child, test)
            if found is not None:
                return found
    return None


def _rename_definition(body):
    named = [d for d in body[3] if d[3]]
    named[0][3] = named[0][3] + " Two"


def _rename_string(body):
    _first(body[3], lambda n: len(n) == 3 and n[0] == "Str")[1] = "Test Card"


def _bump_number(body):
    _first(body[3], lambda n: len(n) == 3 and n[0] == "Int")[1] += 1


def _rename_verb(body):
    _first(body[3], lambda n: len(n) == 6 and isinstance(n[0], str) and n[0] in ("color", "gain", "age"))[0] = "points"


def _drop_statement(body):
    block = _first(body[3], lambda n: len(n) == 2 and isinstance(n[0], list) and len(n[0]) > 1)
    block[0].pop()


def _copy_argument(body):
    statement = _first(body[3], lambda n: len(n) == 6 and isinstance(n[2], list) and n[2])
    statement[2].append(statement[2][0])


def _nest_deeply(body):
    expr = _first(body[3], lambda n: len(n) == 3 and n[0] == "Int")
    inner = list(expr)
    for _ in range(200):
        inner = ["Not", inner, inner[-1]]
    expr[:] = inner


def _tamper(raw: bytes, rng: random.Random) -> bytes:
    """A re-signed entry with one name, string, number or word changed, a statement left out,
    an argument copied, or nested past the limit (the first of these, in a random order, that
    the file has something for)."""
    for change in rng.sample(TAMPERS, len(TAMPERS)):
        try:
            return _resign(raw, change)
        except (TypeError, IndexError):  # nothing of that sort in this file
            continue
    raise AssertionError("no tamper applies")


TAMPERS = [_rename_definition, _rename_string, _bump_number, _rename_verb, _drop_statement, _copy_argument,
           _nest_deeply]


def test_corrupted_or_planted_entries_never_change_the_result(cache, content, monkeypatch):
    monkeypatch.setenv("RULESDSL_NO_CACHE", "1")
    truth = result(content)
    monkeypatch.delenv("RULESDSL_NO_CACHE")
    assert result(content) == truth and truth[0]["summary"]["errors"] == 0
    paths = sorted(content.glob("*.rules")) + sorted((loader.CARDS_ROOT / "duel").glob("*.rules"))
    valid = {p: entry_of(cache, p).read_bytes() for p in paths}
    rng = random.Random(20261124)
    for round_ in range(36):
        target = rng.choice(paths)
        raw = valid[target]
        how = round_ % 6
        if how in (0, 5):  # random byte flips
            damaged = bytearray(raw)
            for _ in range(rng.randint(1, 4)):
                damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
            raw = bytes(damaged)
        elif how == 1:  # truncation
            raw = raw[:rng.randrange(len(raw))]
        elif how == 2:  # another file's entry planted under this file's name
            raw = valid[rng.choice([p for p in paths if p != target])]
        elif how == 3:  # another file's tree, re-labelled as this file's and re-signed
            other = json.loads(valid[rng.choice([p for p in paths if p != target])][len(parse_cache.MAGIC) + 32:])
            raw = _resign(raw, lambda body: body.__setitem__(3, other[3]))
        else:  # a re-signed entry with its tree changed
            raw = _tamper(raw, rng)
        entry_of(cache, target).write_bytes(raw)
        assert result(content) == truth, (round_, target.name)
        # ...and the entry was rebuilt.
        assert entry_of(cache, target).read_bytes() == valid[target], (round_, target.name)
    # Every kind of re-signed change, on a file that has something for it.
    for change in TAMPERS:
        for target in paths:
            try:
                raw = _resign(valid[target], change)
            except (TypeError, IndexError):
                continue
            entry_of(cache, target).write_bytes(raw)
            assert result(content) == truth, (change.__name__, target.name)
            assert entry_of(cache, target).read_bytes() == valid[target], (change.__name__, target.name)
            break
        else:
            raise AssertionError(f"no file for {change.__name__}")


def test_an_entry_of_the_files_older_version_is_not_used(cache, content):
    card = content / "a.rules"
    result(content)
    old = entry_of(cache, card).read_bytes()
    card.write_text(CARDS["a.rules"].replace("color brown", "color purpel"), encoding="utf-8")
    assert result(content)[0]["summary"]["errors"] == 1
    entry_of(cache, card).write_bytes(old)
    got = result(content)[0]
    assert [d["code"] for d in got["diagnostics"]] == ["E302"]


def test_one_entry_per_file_however_its_path_is_typed(cache, content, monkeypatch):
    check_paths([content])
    count = len(entries(cache))
    monkeypatch.chdir(content.parent)
    check_paths([Path(content.name)])
    check_paths([Path(".") / content.name / ".." / content.name])
    assert len(entries(cache)) == count


def test_a_fifo_at_an_entry_path_does_not_hang(cache, content, parses):
    result(content)
    entry = entry_of(cache, content / "a.rules")
    entry.unlink()
    os.mkfifo(entry)
    parses.clear()
    previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("check blocked on a FIFO"))
    signal.alarm(30)
    try:
        report = check_paths([content])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert report.errors == 0
    assert parses == [str(content / "a.rules")]
    assert entry.is_file()  # replaced by a regular entry


def test_a_link_at_an_entry_path_is_neither_read_nor_written_through(cache, content, tmp_path, parses):
    result(content)
    entry = entry_of(cache, content / "a.rules")
    # A link to a valid entry is not followed on reading...
    copy = tmp_path / "copy"
    copy.write_bytes(entry.read_bytes())
    entry.unlink()
    entry.symlink_to(copy)
    parses.clear()
    assert result(content)[0]["summary"]["errors"] == 0
    assert parses == [str(content / "a.rules")]
    assert not entry.is_symlink()
    # ...and a link to a victim is replaced, not written through.
    victim = tmp_path / "victim"
    victim.write_text("precious", encoding="utf-8")
    entry.unlink()
    entry.symlink_to(victim)
    (content / "a.rules").write_text(CARDS["a.rules"] + "\n", encoding="utf-8")  # a miss: stored again
    assert result(content)[0]["summary"]["errors"] == 0
    assert victim.read_text(encoding="utf-8") == "precious"
    assert entry.is_file() and not entry.is_symlink()


def test_a_cache_folder_that_is_a_link_is_not_used(tmp_path, content, monkeypatch):
    target = tmp_path / "elsewhere"
    target.mkdir()
    link = tmp_path / "cache"
    link.symlink_to(target)
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(link))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    assert result(content)[0]["summary"]["errors"] == 0
    assert list(target.iterdir()) == []
    assert "symbolic link" in parse_cache.info().state


def test_the_size_bound_holds_least_recently_used_out(cache, tmp_path, monkeypatch):
    monkeypatch.setattr(parse_cache, "MAX_ENTRIES", 4)
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(7):
        (folder / f"c{i}.rules").write_text(f'card "Card {i}" {{\n    age 1\n    color brown\n}}\n', encoding="utf-8")
    check_paths([folder])
    assert len(entries(cache)) == 4
    # Entries are used in a known order; the oldest use goes first.
    files = sorted(folder.glob("*.rules"))
    for age, path in enumerate(files):
        entry = entry_of(cache, path)
        if entry.exists():
            os.utime(entry, (1000 + age, 1000 + age))
    oldest = min((p for p in files if entry_of(cache, p).exists()), key=lambda p: entry_of(cache, p).stat().st_mtime)
    newest = max(files, key=lambda p: entry_of(cache, p).stat().st_mtime if entry_of(cache, p).exists() else 0)
    extra = folder / "z.rules"
    extra.write_text('card "Card Z" {\n    age 1\n    color brown\n}\n', encoding="utf-8")
    parse_cache.store(extra, extra.read_bytes(), parse_file(str(extra), extra.read_text())[0])
    assert len(entries(cache)) == 4
    assert not entry_of(cache, oldest).exists() and entry_of(cache, newest).exists() and entry_of(cache, extra).exists()
    # The byte bound too.
    size = entry_of(cache, extra).stat().st_size
    monkeypatch.setattr(parse_cache, "MAX_BYTES", 2 * size + 1)
    check_paths([folder])
    assert sum(p.stat().st_size for p in entries(cache)) <= 2 * size + 1


def test_cache_info_and_clear(cache, content):
    runner = CliRunner()
    got = runner.invoke(cli, ["cache", "info"])
    assert got.exit_code == 0 and "no folder yet" in got.output and f"folder: {cache}" in got.output
    result(content)
    n = len(entries(cache))
    total = sum(p.stat().st_size for p in entries(cache))
    got = runner.invoke(cli, ["cache", "info"])
    assert got.exit_code == 0
    assert f"entries: {n} (limit {parse_cache.MAX_ENTRIES})" in got.output
    assert f"bytes: {total} (limit {parse_cache.MAX_BYTES})" in got.output
    (cache / "keep.txt").write_text("not ours", encoding="utf-8")
    got = runner.invoke(cli, ["cache", "clear"])
    assert got.exit_code == 0 and f"removed {n} entries" in got.output
    assert [p.name for p in cache.iterdir()] == ["keep.txt"]  # only entries are removed


def test_no_cache_setting(monkeypatch, content, tmp_path):
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setenv("RULESDSL_NO_CACHE", "1")
    result(content)
    assert not (tmp_path / "c").exists()
    got = CliRunner().invoke(cli, ["cache", "info"])
    assert "off" in got.output


def test_the_grammar_is_not_loaded_from_a_pickle(monkeypatch):
    import lark
    from rulesdsl import parser
    seen = {}
    real = lark.Lark

    def recording(*args, **kwargs):
        seen.update(kwargs)
        return real(*args, **kwargs)
    monkeypatch.setattr(lark, "Lark", recording)
    parser._parser.cache_clear()
    try:
        assert parser._parser() is not None
    finally:
        parser._parser.cache_clear()
    assert seen and not seen.get("cache")


def test_a_cache_folder_of_another_user_is_not_used(cache, content, monkeypatch, parses):
    result(content)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(cache).st_uid + 1)
    parses.clear()
    assert result(content)[0]["summary"]["errors"] == 0
    assert len(parses) > 0  # nothing came from the cache
    assert "belongs to another user" in parse_cache.info().state


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another user needs root")
def test_an_entry_of_another_user_is_not_used(cache, content, parses):
    result(content)
    entry = entry_of(cache, content / "a.rules")
    os.chown(entry, 12345, 12345)
    parses.clear()
    assert result(content)[0]["summary"]["errors"] == 0
    assert parses == [str(content / "a.rules")]


@pytest.mark.parametrize("value, on", [("1", False), ("yes", False), ("0", True), ("false", True), ("", True)])
def test_no_cache_set_to_a_no_leaves_the_cache_on(monkeypatch, content, tmp_path, value, on):
    """`RULESDSL_NO_CACHE=0` turned the cache off, as `=1` does."""
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setenv("RULESDSL_NO_CACHE", value)
    result(content)
    assert (tmp_path / "c").exists() == on
    assert (parse_cache.info().state == "on") == on


def test_where_the_cache_would_go_but_cannot_be_is_said_and_nothing_is_made(monkeypatch, content, tmp_path):
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    monkeypatch.delenv("RULESDSL_CACHE_DIR", raising=False)
    a_file = tmp_path / "a-file"
    a_file.write_text("", encoding="utf-8")
    # XDG_CACHE_HOME a file: "empty (no folder yet)", of a folder that could never be made.
    monkeypatch.setenv("XDG_CACHE_HOME", str(a_file))
    assert parse_cache.info().state == f"not used: {a_file} is not a folder"
    # A relative XDG_CACHE_HOME is ignored (the XDG specification): the home folder's is used.
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    assert parse_cache.cache_dir() == home / ".cache" / "rulesdsl"
    result(content)
    assert (home / ".cache" / "rulesdsl").is_dir() and not (tmp_path / "relative").exists()
    # A home folder that is not there is not made; an empty HOME is no home (it was `/.cache`).
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "gone"))
    result(content)
    assert not (tmp_path / "gone").exists()
    assert parse_cache.info().state == f"not used: {tmp_path / 'gone'} is not there"
    monkeypatch.setenv("HOME", "")
    assert parse_cache.cache_dir() is None
    assert parse_cache.info().state == "off (no home folder (HOME is empty))"


def _modes_as_owner(monkeypatch) -> None:
    """`os.access` answered from the owner's mode bits, as for a user who is not root (root may
    write anywhere, and the suite may run as root): the folders below are the test's own."""
    real = os.access

    def access(path, mode, **kw):
        if mode & os.W_OK and not stat.S_IMODE(os.stat(path).st_mode) & stat.S_IWUSR:
            return False
        return real(path, mode, **kw)
    monkeypatch.setattr(os, "access", access)


def test_a_read_only_cache_is_read_and_said_so_and_stays_read_only(cache, content, monkeypatch, parses):
    result(content)
    n = len(entries(cache))
    _modes_as_owner(monkeypatch)
    cache.chmod(0o555)   # (made read-only by its owner, readable by others: made private, not writable)
    try:
        parses.clear()
        assert result(content)[0]["summary"]["errors"] == 0
        assert parses == []   # the entries were read
        assert stat.S_IMODE(cache.stat().st_mode) == 0o500   # (it was 0o700: writable again)
        info = parse_cache.info()
        assert info.state == parse_cache.READ_ONLY and info.entries == n
        runner = CliRunner()
        got = runner.invoke(cli, ["cache", "info"])
        assert got.exit_code == 0 and "state: read-only (entries are read; new ones are not kept)" in got.output
        got = runner.invoke(cli, ["cache", "clear"])
        assert got.exit_code == 1 and got.output == f"error: cannot clear the cache: {cache} is not writable\n"
        assert len(entries(cache)) == n
    finally:
        cache.chmod(0o700)


def test_a_cache_folder_that_cannot_be_made_is_said_so(tmp_path, content, monkeypatch):
    closed = tmp_path / "closed"
    closed.mkdir()
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(closed / "cache"))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    assert parse_cache.info().state == "empty (no folder yet)"
    _modes_as_owner(monkeypatch)
    closed.chmod(0o555)
    try:
        # (it was "empty (no folder yet)", as if the first `check` would make it)
        assert parse_cache.info().state == f"not used: it cannot be made, {closed} is not writable"
        assert result(content)[0]["summary"]["errors"] == 0
    finally:
        closed.chmod(0o700)
