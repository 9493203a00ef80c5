"""Open a built paper in headless Chromium (Debian's `chromium` + `chromium-driver`, driven by
Selenium) and say what a reader's browser would show wrong: figures that did not load, console
errors and warnings (uncaught exceptions included), anything fetched from outside the page, and
what a manuscript needs: tables and figures numbered 1, 2, ... in their captions ("Table N: …",
"Figure N: …", each figure's caption the one paper.md gives it), every cross-reference a link to
an element of the page that carries the number the link says, and a reference list with every
entry of references.bib.

Used by tests/test_paper_browser.py. No network: chromedriver is always given by path (Selenium
Manager, which downloads drivers, never runs), the page is a file:// URL whose CSS and figures are
inline, and Chromium resolves every host name to nothing, so an external reference fails instead
of going out."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SETUP_HINT = "run `bash scripts/setup.sh` (it installs Debian's chromium and chromium-driver, and selenium)"

# generous: two shared cores, other test suites running beside this one
PAGE_LOAD_TIMEOUT_S = 180
SCRIPT_TIMEOUT_S = 120
READY_TIMEOUT_S = 120

# the paper's figure references: ![caption](figures/<file>){#fig-…}
FIGURE_REF = re.compile(r"!\[([^\]]*)\]\((figures/[^)\s]+)\)")
BIB_ENTRY = re.compile(r"^@\w+\{([^,\s]+),", re.M)

# every <img> and every outermost inline <svg>, after waiting for each image to be decoded; one
# record per figure, in document order
_FIGURES_JS = """
const done = arguments[arguments.length - 1];
const imgs = Array.from(document.images);
Promise.all(imgs.map(i => i.decode().then(() => null, e => String(e)))).then(errs => {
  const caption = e => { const f = e.closest('figure'); const c = f && f.querySelector('figcaption');
                         return c ? c.textContent : ''; };
  const out = imgs.map((i, n) => ({kind: 'img', alt: i.alt || '', complete: i.complete,
      width: i.naturalWidth, height: i.naturalHeight, decode_error: errs[n],
      src: (i.getAttribute('src') || '').slice(0, 60), caption: caption(i)}));
  for (const s of document.querySelectorAll('svg')) {
    if (s.parentElement && s.parentElement.closest('svg')) continue;
    const r = s.getBoundingClientRect();
    const t = s.querySelector('title');
    out.push({kind: 'svg', alt: (s.getAttribute('aria-label') || (t && t.textContent) || ''),
        complete: true, width: r.width, height: r.height, decode_error: null, src: '',
        caption: caption(s)});
  }
  done(out);
});
"""

# let timers and animation frames queued by the page's scripts run before the console is read
_SETTLE_JS = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 250)));
"""

_RESOURCES_JS = "return performance.getEntriesByType('resource').map(e => e.name);"

# the manuscript: numbered captions, cross-reference links and what they point at, the references
_MANUSCRIPT_JS = """
const text = e => (e ? e.textContent : '').replace(/\\s+/g, ' ').trim();
const captions = Array.from(document.querySelectorAll('figure')).map(f => ({id: f.id,
    kind: f.querySelector('table') ? 'table' : (f.querySelector('img, svg') ? 'figure' : 'other'),
    caption: text(f.querySelector('figcaption'))}));
const links = Array.from(document.querySelectorAll('a[href^="#"]')).map(a => {
  const id = decodeURIComponent(a.getAttribute('href').slice(1));
  const t = document.getElementById(id);
  const label = t && t.tagName === 'FIGURE' ? t.querySelector('figcaption') : t;
  return {href: id, text: text(a), role: a.getAttribute('role') || '',
          target: t ? t.tagName.toLowerCase() : null, target_text: text(label).slice(0, 160)};
});
const refs = Array.from(document.querySelectorAll('section[role="doc-bibliography"] li')).map(text);
return {captions: captions, links: links, references: refs,
        has_reference_section: !!document.querySelector('section[role="doc-bibliography"]')};
"""

# click a link and say where the page scrolled: the target's distance from the window's top
_SCROLLED_JS = """
const t = document.getElementById(arguments[0]);
return {hash: location.hash, top: t ? t.getBoundingClientRect().top : null, height: window.innerHeight,
        at_bottom: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2};
"""


class BrowserMissing(RuntimeError):
    pass


@dataclass
class Figure:
    index: int          # 1-based, in document order
    kind: str           # 'img' or 'svg'
    alt: str
    complete: bool
    width: float
    height: float
    decode_error: str | None
    src: str
    caption: str = ""   # the text of its <figure>'s <figcaption>

    @property
    def ok(self) -> bool:
        return self.complete and self.width > 0 and self.height > 0 and not self.decode_error

    def describe(self) -> str:
        return (f"figure {self.index} ({self.kind}, alt {self.alt[:70]!r}, src {self.src[:40]!r}...): "
                f"complete={self.complete} natural size {self.width}x{self.height}"
                + (f", decode: {self.decode_error}" if self.decode_error else ""))


@dataclass
class PageReport:
    url: str
    title: str
    h1: list[str]
    figures: list[Figure]
    console: list[dict]              # every browser log entry: level, message, source
    resources: list[str]             # URLs the page fetched (performance API)
    declared: list[tuple[str, str]] = field(default_factory=list)   # (caption, figures/...) from paper.md
    captions: list[dict] = field(default_factory=list)  # every <figure>: id, kind (table/figure), caption
    links: list[dict] = field(default_factory=list)     # every a[href^="#"]: href, text, target, target_text
    references: list[str] = field(default_factory=list)  # the reference list's entries, as shown
    has_reference_section: bool = False
    bib_keys: list[str] = field(default_factory=list)   # the entries of the build's references.bib

    def numbered(self, kind: str) -> list[int]:
        """The numbers the captions of one kind ("table", "figure") carry, in page order."""
        word = kind.capitalize()
        return [int(m.group(1)) for c in self.captions if c["kind"] == kind
                for m in [re.match(rf"{word} (\d+):", c["caption"])] if m]

    def manuscript_problems(self) -> list[str]:
        """Numbering, cross-references and the reference list (empty: as a manuscript should be)."""
        out = []
        for kind in ("table", "figure"):
            caps = [c for c in self.captions if c["kind"] == kind]
            nums = self.numbered(kind)
            if len(nums) != len(caps):
                bad = [c["caption"][:60] for c in caps if not re.match(rf"{kind.capitalize()} \d+:", c["caption"])]
                out.append(f"{len(caps) - len(nums)} {kind}s without a numbered caption: {bad[:3]}")
            elif nums != list(range(1, len(nums) + 1)):
                out.append(f"{kind}s numbered {nums[:12]}…, not 1, 2, 3, …")
        for f, (caption, path) in zip(self.figures, self.declared):
            shown = re.sub(r"^Figure \d+:\s*", "", " ".join(f.caption.split()))
            if plain(shown) != plain(caption):
                out.append(f"figure {f.index} ({path}) is captioned {shown[:80]!r} where paper.md has {caption[:80]!r}")
        for link in self.links:
            if link["target"] is None:
                out.append(f"link {link['text']!r} to #{link['href']}: no such element in the page")
            elif link["href"].startswith(("tab-", "fig-", "sec-")):
                if not link["target_text"].startswith(xref_number(link["text"])):
                    out.append(f"link {link['text']!r} to #{link['href']} lands on {link['target_text'][:50]!r}")
        if not self.has_reference_section:
            out.append("the page has no reference list")
        elif len(self.references) != len(self.bib_keys):
            out.append(f"{len(self.references)} references in the page, {len(self.bib_keys)} in references.bib")
        return out

    @property
    def broken_figures(self) -> list[Figure]:
        return [f for f in self.figures if not f.ok]

    @property
    def console_problems(self) -> list[dict]:
        return [e for e in self.console if e.get("level") in ("WARNING", "SEVERE")]

    @property
    def external_resources(self) -> list[str]:
        return [u for u in self.resources if not u.startswith(("data:", "file:"))]

    def problems(self) -> list[str]:
        """Everything wrong with the page's rendering, one sentence each (empty: it renders as it
        should); manuscript_problems says what is wrong with it as a manuscript."""
        out = []
        if not self.title.strip():
            out.append("the page has no <title>")
        if not any(h.strip() for h in self.h1):
            out.append("the page has no <h1> heading")
        out += [f"broken {f.describe()}" for f in self.broken_figures]
        out += [f"console {e['level']}: {e['message']}" for e in self.console_problems]
        out += [f"fetched from outside the page: {u}" for u in self.external_resources]
        if len(self.figures) != len(self.declared):
            out.append(f"{len(self.figures)} figures in the page, {len(self.declared)} declared in paper.md "
                       f"({[p for _, p in self.declared]})")
        return out


def plain(caption: str) -> str:
    """A caption as text: Markdown's code and emphasis marks and backslash escapes (\\_, \\{) dropped,
    quotes and dashes as typed."""
    s = re.sub(r"\\([\\`*_{}\[\]()#+\-.!])", r"\1", caption)
    s = re.sub(r"[`*]", "", s)
    for a, b in (("“", '"'), ("”", '"'), ("‘", "'"), ("’", "'"), ("—", "---"), ("–", "--")):
        s = s.replace(a, b)
    return " ".join(s.split())


def xref_number(link_text: str) -> str:
    """What the target of a cross-reference link must start with: "Table 3" → "Table 3:",
    "Figure 2" → "Figure 2:", "Section 4.1" → "4.1 " (the heading's number)."""
    m = re.fullmatch(r"(Table|Figure) (\d+)", link_text)
    if m:
        return f"{m.group(1)} {m.group(2)}:"
    m = re.fullmatch(r"Section ([\d.]+)", link_text)
    return f"{m.group(1)} " if m else "\0never"


def declared_figures(build_dir: Path, stem: str = "paper") -> list[tuple[str, str]]:
    """(caption, relative path) of every figure the build's <stem>.md (the paper's, or its supplement's)
    references, in order; each must exist in build/figures/."""
    refs = FIGURE_REF.findall((Path(build_dir) / f"{stem}.md").read_text())
    for _, rel in refs:
        assert (Path(build_dir) / rel).is_file(), f"{stem}.md references {rel}, which the build did not write"
    return refs


def start_browser():
    """A headless Chromium under /usr/bin/chromedriver, console logged at every level. Raises
    BrowserMissing (saying to run scripts/setup.sh) when the browser, its driver or selenium is
    missing."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).is_file()]
    if missing:
        raise BrowserMissing(f"{', '.join(missing)} missing: {SETUP_HINT}")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        raise BrowserMissing(f"selenium is not installed ({e}): {SETUP_HINT}") from e

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--mute-audio", "--window-size=1280,1024",
                # no network: any host name resolves to nothing, and no proxy is looked up
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost", "--no-proxy-server"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # an explicit driver path: Selenium Manager (which would download one) is never run
    service = Service(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(service=service, options=opts)
    try:
        driver.set_page_load_timeout(PAGE_LOAD_TIMEOUT_S)
        driver.set_script_timeout(SCRIPT_TIMEOUT_S)
    except BaseException:
        driver.quit()
        raise
    return driver


def inspect(driver, html: Path, build_dir: Path | None = None) -> PageReport:
    """Load `html` (a local file) and report on it. `build_dir` (default: the file's folder) holds
    the <page>.md (paper.md, supplement.md) whose figure references the page must show."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    html = Path(html).resolve()
    build_dir = Path(build_dir) if build_dir else html.parent
    driver.get_log("browser")                    # drop anything left from a previous page
    driver.get("about:blank")
    driver.get(html.as_uri())
    WebDriverWait(driver, READY_TIMEOUT_S).until(
        lambda d: d.execute_script("return document.readyState") == "complete")
    driver.execute_async_script(_SETTLE_JS)
    figures = [Figure(index=n, **rec) for n, rec in
               enumerate(driver.execute_async_script(_FIGURES_JS), start=1)]
    resources = driver.execute_script(_RESOURCES_JS)
    manuscript = driver.execute_script(_MANUSCRIPT_JS)
    bib = Path(build_dir) / "references.bib"
    report = PageReport(url=driver.current_url, title=driver.title,
                        h1=[e.text for e in driver.find_elements(By.TAG_NAME, "h1")],
                        figures=figures, console=driver.get_log("browser"), resources=resources,
                        declared=declared_figures(build_dir, html.stem), **manuscript,
                        bib_keys=BIB_ENTRY.findall(bib.read_text()) if bib.is_file() else [])
    return report


def follow(driver, href: str) -> dict:
    """Click the first link to #href on the loaded page; {hash, top, height, at_bottom}: the URL's
    fragment after the click, how far the target then is from the window's top (px), the window's
    height, whether the page is scrolled to its end (a target near the end cannot reach the top)."""
    from selenium.webdriver.common.by import By

    link = driver.find_element(By.CSS_SELECTOR, f'a[href="#{href}"]')
    driver.execute_script("window.scrollTo(0, 0)")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    driver.execute_async_script(_SETTLE_JS)
    return driver.execute_script(_SCROLLED_JS, href)


def copy_build(build_dir: Path, dest: Path) -> Path:
    """A scratch copy of a paper's build/ folder (to break on purpose); returns the copy's path."""
    return Path(shutil.copytree(build_dir, Path(dest) / "build"))
