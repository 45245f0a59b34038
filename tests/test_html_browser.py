"""The HTML report in a real headless browser (Chromium from the distribution:
``apt-get install -y chromium``): the page renders, the screenshot is a real
image, and the rendered text shows the mistake and the better move."""

import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from guandan_fast.analysis.review import analyse
from guandan_fast.formats.record import load
from guandan_fast.report.render import render_html

sys.path.insert(0, str(Path(__file__).resolve().parent))
import minimax  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(b)), None)
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="Chromium is not installed (Debian: apt-get install -y chromium)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--disable-dev-shm-usage"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    rec = load(EXAMPLES / "record_endgame_short.txt")
    data = analyse(rec, solver=minimax.solve).to_dict()
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(render_html(data), encoding="utf-8")
    return path


def _browser(*args, cwd):
    return subprocess.run([BROWSER, *FLAGS, *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def test_screenshot(page):
    png = page.parent / "report.png"
    r = _browser(f"--screenshot={png}", "--window-size=1280,1400", page.as_uri(), cwd=page.parent)
    assert png.exists(), r.stderr[-2000:]
    raw = png.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", raw[16:24])
    assert (width, height) == (1280, 1400)
    # a rendered page of cards and colours, not a blank frame (a blank PNG is ~5 KB)
    assert len(raw) > 40_000


def test_rendered_text_shows_the_mistake(page):
    r = _browser("--dump-dom", page.as_uri(), cwd=page.parent)
    dom = r.stdout
    assert "<table" in dom, r.stderr[-2000:]
    text = re.sub(r"<[^>]+>", " ", dom)
    text = re.sub(r"\s+", " ", text)
    assert "Result: Boris &amp; Dmitri win, +1" in text
    # the first move is the mistake, highlighted, with the better move beside it
    row = re.search(r'<tr id="m1" class="([^"]*)">(.*?)</tr>', dom, re.S)
    assert row and "mistake" in row.group(1)
    assert "✗ loses 2" in row.group(2) and "first mistake" in row.group(2)
    assert 'better (+1):' in row.group(2) and 'title="S3"' in row.group(2)
    assert 'title="C5"' in row.group(2)
    # the other rows are not marked
    assert dom.count('class="mistake"') + dom.count('class="round mistake"') == 1
    # four hands drawn as cards
    assert dom.count('class="seat t') == 4
