"""Every page of the web console in a real browser (Debian's Chromium through Selenium),
for the accessibility basics and one navigation.

The pages are not listed by hand: a reader not signed in, a judge and the organizer each
follow every link of the console from their start page, in Polish and in English, so a
page an area adds later is checked too, and every GET route of the application must be
reached by some link. On every page:

- every visible input, select and textarea has a ``<label for>``, a label around it or an
  ``aria-label``;
- every piece of text has at least WCAG AA's contrast (4.5:1; 3:1 for large text) against
  the background it is drawn on, from the colours the browser computed; so has every table
  state's band of ``/states.css``;
- the page's ``lang`` is the language it shows: no message of the catalogs is left in the
  other language (an English one whose Polish differs on a Polish page, or the reverse),
  and the language switch leads to the same page;
- at a phone's 390×844 zoomed to 200 % (a layout viewport of 195 CSS pixels) the body
  does not scroll sideways and every button and field lies within the screen's width or in
  a box of its own that scrolls;
- every page links the public pages; a signed-in judge reaches every judges' page from
  every page, the organizer every organizer's page (the header's menu);
- axe-core, the accessibility checker (from npm, installed by ``./kit test``), finds no
  violation on any Polish page at a laptop's size and a phone's, nor on the printouts the
  pages link (the English pages are the same templates).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from babel.messages.pofile import read_po
from selenium import webdriver
from selenium.webdriver.common.by import By
from starlette.routing import Route
from web_console import (
    LAPTOP,
    PHONE,
    WEB_ACCOUNTS,
    axe_violations,
    browser,
    school_hall,
    serve_console,
    waiting,
)

from hub.samples import sample_hall
from hub.web.app import make_app
from tablekit.core.status import TableState
from tablekit.core.topics import Topics

LOCALE = Path(__file__).resolve().parents[1] / "tablekit" / "locale"
PUBLIC = ("/", "/find", "/standings", "/tables")
"""The public pages every page links."""
NOT_PAGES = ("/live", "/states.css", "/static", "/logout", "/setup")
"""Routes that are not pages to read: the live stream, style sheets, the sign-out post,
the first start's page (offered only before the accounts exist:
tests/test_web_first_start_browser.py)."""
AFTER_A_FORM = {
    "judge": ["/judge/result/stored?stage=round-1&table=1&game=1"],
    "organizer": ["/organizer/round/seating"],
}
"""Pages a form's answer leads to (no link does): the crawl starts there too."""
FILE = re.compile(r"\.[\w{}]+$")
"""A route of a file to download (``archive.zip``, ``season.{kind}``): a link to it shows
only when there is something to download."""
MOST_PAGES = 90
"""A crawl that finds more console pages than this follows a link that never ends."""

PAGE_FACTS = r"""
const contrast = (a, b) => {
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map(v => v / 255)
      .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};
const rgba = text => {
  const m = text.match(/[\d.]+/g).map(Number);
  return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
};
const over = (top, under) =>
  [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
const background = el => {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let colour = [255, 255, 255, 1];
  for (const layer of layers.reverse()) colour = over(layer, colour);
  return colour;
};
const visible = e => {
  const r = e.getBoundingClientRect();
  return r.width > 1 && r.height > 1 && getComputedStyle(e).visibility !== "hidden";
};
const words = [], lowContrast = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const el = n.parentElement, t = n.textContent.trim();
  if (!t || !el || ["SCRIPT", "STYLE", "OPTION"].includes(el.tagName)) continue;
  if (!visible(el)) continue;
  if (el.closest("[lang]") === document.documentElement) words.push(t);
  const style = getComputedStyle(el);
  const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
  const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
  const ink = over(rgba(style.color), background(el));
  const ratio = contrast(ink, background(el));
  if (ratio < need) lowContrast.push(`${ratio.toFixed(2)}:1 "${t.slice(0, 40)}" `
    + `(${el.tagName.toLowerCase()}.${el.className}, ${style.color} on ${background(el)})`);
}
for (const o of document.querySelectorAll("option")) words.push(o.textContent.trim());
for (const e of document.querySelectorAll("[aria-label], [title], input[placeholder]"))
  words.push(e.getAttribute("aria-label") || e.getAttribute("title")
             || e.getAttribute("placeholder"));
const unlabelled = Array.from(document.querySelectorAll("input, select, textarea"))
  .filter(e => e.type !== "hidden")
  .filter(e => !(e.labels && e.labels.length))
  .filter(e => !e.getAttribute("aria-label") && !e.getAttribute("aria-labelledby"))
  .map(e => e.name || e.id || e.outerHTML.slice(0, 80));
const links = Array.from(document.querySelectorAll("a[href]"))
  .filter(a => a.origin === location.origin && !a.hasAttribute("download"))
  .map(a => a.pathname + a.search);
const switcher = document.querySelector("a.language");
return {
  lang: document.documentElement.lang, title: document.title, words, lowContrast, unlabelled, links,
  console: !!document.querySelector("header.top"),
  language: switcher ? switcher.pathname : null,
};
"""

REFLOW = r"""
const width = document.documentElement.clientWidth;
const sideways = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - width;
const scrolls = e => {
  for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    if (["auto", "scroll"].includes(getComputedStyle(p).overflowX)) return true;
  }
  return false;
};
const reached = "button, a.button, input, select, textarea, summary";
const outside = Array.from(document.querySelectorAll(reached))
  .filter(e => e.type !== "hidden" && e.getBoundingClientRect().width > 1)
  .filter(e => {
    const r = e.getBoundingClientRect();
    return (r.left < -1 || r.right > width + 1) && !scrolls(e);
  })
  .map(e => (e.textContent.trim() || e.name || e.id || e.tagName).slice(0, 40));
return {width, sideways, outside};
"""

STATE_BANDS = r"""
const main = document.querySelector("main");
const found = [];
for (const state of arguments[0]) {
  const card = document.createElement("article");
  card.className = "card";
  card.innerHTML = `<h3 class="band state-${state}"><a href="#">Stolik 1</a> `
    + `<span class="state">${state}</span></h3>`;
  main.append(card);
  for (const el of card.querySelectorAll("a, span")) {
    const style = getComputedStyle(el);
    const paper = getComputedStyle(el.parentElement).backgroundColor;
    found.push([state, el.tagName, style.color, paper]);
  }
  card.remove();
}
return found;
"""


@dataclass
class Crawl:
    """What one reader saw: facts of each console page by its address, and every route
    (as the application spells it) a link led to."""

    pages: dict[str, dict[str, Any]] = field(default_factory=dict)
    routes: set[str] = field(default_factory=set)
    printouts: set[str] = field(default_factory=set)
    """Links to HTML files that are not console pages (the printouts)."""


@cache
def other_language_words() -> dict[str, frozenset[str]]:
    """For each language, the catalogs' words of the other one that it never shows:
    English messages whose Polish differs (for a Polish page) and the reverse; messages
    of a placeholder ({x}) become patterns of the whole text."""
    with open(LOCALE / "pl" / "LC_MESSAGES" / "tablekit.po", "rb") as po:
        catalog = read_po(po)
    english: set[str] = set()
    polish: set[str] = set()
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for en, pl in zip(ids, strings, strict=False):
            if not isinstance(en, str) or not isinstance(pl, str) or not pl or en == pl:
                continue
            english.add(en)
            polish.add(pl)
    return {"pl": frozenset(english), "en": frozenset(polish)}


@cache
def other_language_patterns(lang: str) -> tuple[re.Pattern[str], ...]:
    patterns = []
    for text in other_language_words()[lang]:
        parts = re.split(r"\{[^{}]*\}|%\(\w+\)s|%s|%d", text.strip())
        body = ".+?".join(re.escape(part) for part in parts)
        if len(re.sub(r"[\W\d_]", "", "".join(parts))) < 3:
            continue
        patterns.append(re.compile(rf"{body}", re.DOTALL))
    return tuple(patterns)


def foreign(lang: str, words: list[str]) -> list[str]:
    """The texts of a page in ``lang`` that are whole messages of the other language."""
    own = {"pl": other_language_words()["en"], "en": other_language_words()["pl"]}[lang]
    left = []
    for text in set(words):
        if text in own:
            continue
        for pattern in other_language_patterns(lang):
            if pattern.fullmatch(text):
                left.append(f"{text!r} ~ {pattern.pattern[:60]!r}")
                break
    return sorted(left)


def route_of(path: str, routes: list[Route]) -> str | None:
    for route in routes:
        if route.path_regex.match(path):
            return route.path
    return None


def crawl(driver: webdriver.Chrome, url: str, starts: list[str], routes: list[Route]) -> Crawl:
    """Follows every link of the console from ``starts``: one page per route, language
    and set of query names (one player's page stands for all)."""
    seen = Crawl()
    kinds: set[tuple[str, str, tuple[str, ...]]] = set()
    todo = list(starts)
    while todo:
        address = todo.pop(0)
        parts = urlsplit(address)
        route = route_of(parts.path, routes)
        if route is None or route.startswith(NOT_PAGES):
            continue
        seen.routes.add(route)
        query = dict(q.split("=", 1) for q in parts.query.split("&") if "=" in q)
        kind = (route, query.get("lang", "pl"), tuple(sorted(query)))
        if kind in kinds or address in seen.pages:
            continue
        kinds.add(kind)
        kind_of = driver.execute_async_script(
            "const done = arguments[1]; fetch(arguments[0]).then(async r => done("
            "[r.headers.get('content-type') || '', (await r.text()).includes('class=\"top\"')]))"
            ".catch(e => done(['', false]));",
            address,
        )
        if not (kind_of[0].startswith("text/html") and kind_of[1]):
            if kind_of[0].startswith("text/html"):
                seen.printouts.add(address)
            continue  # a download (CSV, a printout, the archive)
        driver.get(url + address)
        facts = driver.execute_script(PAGE_FACTS)
        facts["route"] = route
        facts["axe"] = [] if query.get("lang") == "en" else axe_violations(driver)
        seen.pages[address] = facts
        assert len(seen.pages) <= MOST_PAGES, sorted(seen.pages)
        todo.extend(link for link in facts["links"] if link not in seen.pages)
    return seen


def sign_in(driver: webdriver.Chrome, url: str, name: str) -> None:
    driver.get(f"{url}/login")
    waiting(driver).until(lambda d: d.find_elements(By.ID, "password"))
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "password").send_keys(WEB_ACCOUNTS[name][1])
    driver.find_element(By.ID, "password").submit()
    waiting(driver).until(lambda d: "/login" not in d.current_url)


def problems(seen: Crawl) -> Iterator[str]:
    for address, facts in sorted(seen.pages.items()):
        lang = "en" if "lang=en" in address else "pl"
        if facts["lang"] != lang:
            yield f"{address}: lang={facts['lang']!r}, shows {lang}"
        for name in facts["unlabelled"]:
            yield f"{address}: no label for {name}"
        for low in facts["lowContrast"]:
            yield f"{address}: contrast {low}"
        for violation in facts["axe"]:
            yield f"{address}: axe {violation}"
        for text in foreign(lang, facts["words"] + [facts["title"]]):
            yield f"{address}: {lang} page shows {text}"
        if facts["language"] != urlsplit(address).path:
            yield f"{address}: the language switch leads to {facts['language']}"
        linked = {urlsplit(link).path for link in facts["links"]}
        for public in PUBLIC:
            if public not in linked:
                yield f"{address}: no link to {public}"


def area_pages(seen: Crawl, prefix: str) -> set[str]:
    """The pages of an area a reader must reach from every page: those of its routes the
    crawl found without a subject (no parameter, no query but the language), and not
    only as a form's answer."""
    answers = {urlsplit(a).path for starts in AFTER_A_FORM.values() for a in starts}
    return {facts["route"] for address, facts in seen.pages.items()
            if facts["route"].startswith(prefix) and "{" not in facts["route"]
            and facts["route"] not in answers
            and urlsplit(address).query in ("", "lang=en")}


def unreached(seen: Crawl, prefix: str) -> Iterator[str]:
    wanted = area_pages(seen, prefix)
    for address, facts in sorted(seen.pages.items()):
        linked = {urlsplit(link).path for link in facts["links"]}
        for page in sorted(wanted - linked):
            yield f"{address}: no link to {page}"


def test_every_page_is_labelled_readable_in_its_language_and_linked(
    tmp_path: Path, chromium: list[webdriver.Chrome], wait_until: Any
) -> None:
    school_hall(tmp_path / "event.sqlite3", "Mistrzostwa Szkół").ok(
        "result", "enter", "--table", "1", "--game", "1", "--racks", "0 5 6 7"
    )
    with serve_console(tmp_path / "event.sqlite3", None, Topics("hall", "a11y")) as served:
        # the tables' live cards, in the states of a sample hall (no broker here)
        served.console.live.hall = sample_hall(2, time.time())
        wait_until(lambda: served.console.live.cards, 10, "the sample hall's cards")
        routes = [r for r in make_app(served.console).routes if isinstance(r, Route)
                  and r.methods and "GET" in r.methods]
        laptop = browser(LAPTOP)
        chromium.append(laptop)
        laptop.get(served.url)
        everyone = crawl(laptop, served.url, ["/", "/?lang=en", "/login", "/login?lang=en"], routes)

        bands = laptop.execute_script(STATE_BANDS, [s.value for s in TableState])
        low_bands = [b for b in bands if _ratio(b[2], b[3]) < 4.5]
        assert not low_bands, low_bands

        sign_in(laptop, served.url, "judge-1")
        judge = crawl(
            laptop, served.url, ["/judge", "/judge?lang=en", *AFTER_A_FORM["judge"]], routes
        )
        laptop.delete_all_cookies()
        sign_in(laptop, served.url, "organizer")
        organizer = crawl(
            laptop,
            served.url,
            ["/organizer", "/organizer?lang=en", "/judge", *AFTER_A_FORM["organizer"]],
            routes,
        )

        found = [*problems(everyone), *problems(judge), *problems(organizer),
                 *unreached(judge, "/judge"), *unreached(organizer, "/organizer")]
        for address in sorted(organizer.printouts):
            laptop.get(served.url + address)
            found += [f"{address}: axe {v}" for v in axe_violations(laptop)]
        reached = everyone.routes | judge.routes | organizer.routes
        found += [f"no link reaches {r.path}" for r in routes if r.path not in reached
                  and not r.path.startswith(NOT_PAGES) and not FILE.search(r.path)]
        assert not found, "\n".join(found)
        assert area_pages(judge, "/judge") >= {"/judge", "/judge/result", "/judge/corrections"}
        assert area_pages(organizer, "/organizer") >= {"/organizer", "/organizer/round"}

        phone = browser(LAPTOP)  # its metrics are set here: a phone's, zoomed
        chromium.append(phone)
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": PHONE[0] // 2, "height": PHONE[1] // 2, "deviceScaleFactor": 4, "mobile": True,
        })
        phone.get(served.url)
        for cookie in laptop.get_cookies():
            phone.add_cookie({"name": cookie["name"], "value": cookie["value"], "path": "/"})
        cramped = []
        for address in sorted({*everyone.pages, *judge.pages, *organizer.pages}):
            if "lang=en" in address:
                continue
            phone.get(served.url + address)
            reflow = phone.execute_script(REFLOW)
            assert reflow["width"] == PHONE[0] // 2
            if reflow["sideways"] > 0 or reflow["outside"]:
                cramped.append(f"{address}: {reflow['sideways']} px sideways, "
                               f"out of reach {reflow['outside']}")
            cramped += [f"{address} on a phone: axe {v}" for v in axe_violations(phone)]
        assert not cramped, "\n".join(cramped)


def _ratio(ink: str, paper: str) -> float:
    def lum(text: str) -> float:
        values = [float(v) / 255 for v in re.findall(r"[\d.]+", text)[:3]]
        c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in values]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    x, y = sorted((lum(ink), lum(paper)), reverse=True)
    return (x + 0.05) / (y + 0.05)
