"""A headless Chromium for the browser tests (Debian's chromium with
chromium-driver, through Selenium): the skip mark when it is missing, a
browser session, a page opened from HTML, the console's errors."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

DRIVER = shutil.which("chromedriver")
BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(b)), None)
needs_browser = pytest.mark.skipif(
    DRIVER is None or BROWSER is None,
    reason="Chromium and its driver are not installed (Debian: apt-get install chromium chromium-driver)")


def session(width: int, height: int) -> Iterator[webdriver.Chrome]:
    """A headless browser with a ``width`` x ``height`` window, its console
    log kept, quit when the generator is closed (a fixture yields from it)."""
    opts = Options()
    opts.binary_location = BROWSER
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--hide-scrollbars", f"--window-size={width},{height}", "--lang=en-US"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(DRIVER), options=opts)
    d.set_page_load_timeout(60)
    try:
        yield d
    finally:
        d.quit()


def open_page(driver, page: Path, html: str) -> Path:
    """``html`` written to ``page`` and loaded in the browser."""
    page.write_text(html, encoding="utf-8")
    driver.get(page.as_uri())
    return page


def console_errors(driver) -> list:
    """The browser console's errors since the last call."""
    return [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]
