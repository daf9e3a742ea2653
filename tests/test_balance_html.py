"""The balance lab's HTML report: one self-contained file whose plots and tables are there, read
with an HTML parser and, where Debian's chromium and chromedriver are installed, in a real
headless browser (selenium)."""

import base64
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli

HANDS = str(Path(__file__).parent / "data" / "hands")


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    path = tmp_path_factory.mktemp("html") / "report.html"
    result = CliRunner().invoke(cli, ["balance", "-g", HANDS, "-p", "3", "--agents", "random,greedy,mcts",
                                      "--iterations", "10", "-n", "6", "-j", "1", "--html", str(path)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"HTML report written to {path}" in result.stdout
    return path


class Parts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images, self.tables, self.rows, self.external = [], [], 0, []
        self._table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.images.append(a)
        if tag == "table":
            self.tables.append(a.get("class"))
        if tag == "tr":
            self.rows += 1
        if tag in ("script", "link") or (tag == "img" and not a.get("src", "").startswith("data:")):
            self.external.append(tag)


def test_html_structure(page):
    parts = Parts()
    parts.feed(page.read_text())
    assert parts.external == []                                   # self-contained
    assert len(parts.images) == 4
    for img in parts.images:
        assert img["src"].startswith("data:image/png;base64,")
        assert base64.b64decode(img["src"].split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert {"rates", "victories", "categories", "definitions"} <= set(parts.tables)
    assert parts.rows > 10


def _browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.skip("no chromium and chromedriver here (Debian: apt-get install chromium chromium-driver); "
                    "test_html_structure checks the page without a browser")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(driver), options=options)


def test_html_in_a_headless_browser(page):
    browser = _browser()
    try:
        browser.get(page.as_uri())
        images = browser.execute_script(
            "return Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.naturalHeight, i.alt])")
        assert len(images) == 4
        assert all(done and w > 100 and h > 100 for done, w, h, _ in images)     # each plot decoded and drawn
        assert any("win rate" in alt.lower() for *_, alt in images)
        tables = browser.execute_script(
            "return Array.from(document.querySelectorAll('table')).map(t => [t.className, t.rows.length])")
        by_class = dict(tables)
        assert by_class["rates"] == 7          # a header, 3 agents, 3 seats
        assert by_class["definitions"] >= 2
        assert "Outliers" in browser.find_element("tag name", "body").text
    finally:
        browser.quit()
