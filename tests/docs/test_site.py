"""The documentation site (build/docs/site, `make docs`) in a real browser: Debian's headless
Chromium, driven by Selenium through Debian's chromedriver.

Checks: the home page and a call page render (screenshots kept in build/docs/screenshots, CI's
artefacts); the site's search finds `allgatherv`'s page; every internal link, anchor and
resource of every page resolves, and no page loads anything from another host (the site works
offline); at a phone's width a page fits the screen and its navigation opens from the menu.
"""

from __future__ import annotations

import functools
import html.parser
import http.server
import os
import threading
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "build" / "docs" / "site"
SHOTS = ROOT / "build" / "docs" / "screenshots"
CHROMIUM = os.environ.get("NAMPI_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("NAMPI_CHROMEDRIVER", "/usr/bin/chromedriver")

if not (SITE / "index.html").is_file():
    pytest.exit(f"{SITE}/index.html is missing: run `make docs` first", returncode=2)


@pytest.fixture(scope="module")
def server():
    handler = functools.partial(QuietHandler, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test reports what matters
        pass


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            pytest.fail(f"{path} is missing: `make setup-docs` installs Debian's chromium and chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def wait_for(driver, css: str, timeout: float = 10):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(ec.visibility_of_element_located((By.CSS_SELECTOR, css)))


def console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def test_home_page_renders(server, browser):
    browser.set_window_size(1280, 900)
    browser.get(server + "/")
    heading = wait_for(browser, "article h1")
    assert heading.text.strip() == "nampi"
    assert "nampi" in browser.title
    code = wait_for(browser, "article pre code")
    assert "comm.allgatherv(send_buf(v))" in code.text
    nav = browser.find_element("css selector", "nav.md-nav--primary")
    assert "Getting started" in nav.get_attribute("textContent")
    browser.save_screenshot(str(SHOTS / "home.png"))
    assert console_errors(browser) == []


def test_call_page_renders(server, browser):
    browser.set_window_size(1280, 900)
    browser.get(server + "/generated/docs/allgatherv/")
    heading = wait_for(browser, "article h1")
    assert "comm.allgatherv(...)" in heading.text and "MPI_Allgatherv" in heading.text
    rows = browser.find_elements("css selector", "article table tbody tr")
    assert any(r.text.startswith("send_buf") for r in rows), "the parameter table is not rendered"
    browser.save_screenshot(str(SHOTS / "call_page.png"))
    assert console_errors(browser) == []


def test_search_finds_allgatherv(server, browser):
    from selenium.webdriver.support.ui import WebDriverWait

    browser.set_window_size(1280, 900)
    browser.get(server + "/")
    box = wait_for(browser, "input.md-search__input")  # in the header at a desktop's width
    box.click()
    box.send_keys("allgatherv")

    def result_links(driver):
        links = driver.find_elements("css selector", ".md-search-result__item a")
        return [a.get_attribute("href") for a in links] or False

    hrefs = WebDriverWait(browser, 15).until(result_links)
    assert any(urllib.parse.urlparse(h).path.rstrip("/").endswith("generated/docs/allgatherv") for h in hrefs), hrefs
    browser.save_screenshot(str(SHOTS / "search.png"))


class PageLinks(html.parser.HTMLParser):
    """The ids of a page, and the links and resources it refers to."""

    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.resources: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag in ("img", "script") and a.get("src"):
            self.resources.append(a["src"])
        elif tag == "link" and a.get("href") and a.get("rel") not in ("canonical",):
            self.resources.append(a["href"])


@functools.cache
def parsed(path: Path) -> PageLinks:
    p = PageLinks()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def target_file(page: Path, url: str) -> Path:
    path = urllib.parse.unquote(urllib.parse.urlparse(url).path)
    if path.startswith("/"):  # the 404 page's links are from the site's root
        target = (SITE / path.lstrip("/")).resolve()
    else:
        target = (page.parent / path).resolve() if path else page
    return target / "index.html" if target.is_dir() else target


def test_every_internal_link_resolves_and_nothing_is_fetched_from_elsewhere():
    pages = sorted(SITE.rglob("*.html"))
    assert len(pages) > 200, f"only {len(pages)} pages built"
    broken, external = [], []
    for page in pages:
        where = page.relative_to(SITE)
        info = parsed(page)
        for url in info.links:
            parts = urllib.parse.urlparse(url)
            if parts.scheme in ("http", "https", "mailto"):
                continue  # a link the reader may follow; nothing is loaded by it
            target = target_file(page, url)
            if not target.is_file():
                broken.append(f"{where}: {url}")
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in parsed(target).ids:
                broken.append(f"{where}: {url} (no such anchor)")
        for url in info.resources:
            if urllib.parse.urlparse(url).scheme in ("http", "https") or url.startswith("//"):
                external.append(f"{where}: {url}")
            elif not target_file(page, url).is_file():
                broken.append(f"{where}: {url}")
    assert broken == []
    assert external == []


def test_usable_at_a_phone_width(server, browser):
    browser.set_window_size(390, 844)
    browser.get(server + "/generated/docs/allgatherv/")
    wait_for(browser, "article h1")
    width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is wider than the screen: {width}"
    sidebar = browser.find_element("css selector", "nav.md-nav--primary")
    assert not sidebar.is_displayed() or sidebar.rect["x"] + sidebar.rect["width"] <= 0
    from selenium.webdriver.support.ui import WebDriverWait

    browser.find_element("css selector", "label.md-header__button[for='__drawer']").click()
    link = wait_for(browser, "nav.md-nav--primary a.md-nav__link[href]")
    WebDriverWait(browser, 5).until(lambda _: link.rect["x"] >= 0)  # the drawer slides in
    browser.save_screenshot(str(SHOTS / "phone.png"))
    assert console_errors(browser) == []
