"""Open a built paper in headless Chromium (Debian's `chromium` + `chromium-driver`, driven by
Selenium) and say what a reader's browser would show wrong: figures that did not load, console
errors and warnings (uncaught exceptions included), anything fetched from outside the page.

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

# the paper's figure references, as mistune reads them: ![caption](figures/<file>)
FIGURE_REF = re.compile(r"!\[([^\]]*)\]\((figures/[^)\s]+)\)")

# every <img> and every outermost inline <svg>, after waiting for each image to be decoded; one
# record per figure, in document order
_FIGURES_JS = """
const done = arguments[arguments.length - 1];
const imgs = Array.from(document.images);
Promise.all(imgs.map(i => i.decode().then(() => null, e => String(e)))).then(errs => {
  const out = imgs.map((i, n) => ({kind: 'img', alt: i.alt || '', complete: i.complete,
      width: i.naturalWidth, height: i.naturalHeight, decode_error: errs[n],
      src: (i.getAttribute('src') || '').slice(0, 60)}));
  for (const s of document.querySelectorAll('svg')) {
    if (s.parentElement && s.parentElement.closest('svg')) continue;
    const r = s.getBoundingClientRect();
    const t = s.querySelector('title');
    out.push({kind: 'svg', alt: (s.getAttribute('aria-label') || (t && t.textContent) || ''),
        complete: true, width: r.width, height: r.height, decode_error: null, src: ''});
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
        """Everything wrong with the page, one sentence each (empty: it renders as it should)."""
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
        else:
            for f, (caption, path) in zip(self.figures, self.declared):
                if f.alt != caption:
                    out.append(f"figure {f.index} shows {f.alt!r} where paper.md has {caption!r} ({path})")
        return out


def declared_figures(build_dir: Path) -> list[tuple[str, str]]:
    """(caption, relative path) of every figure the build's paper.md references, in order; each
    must exist in build/figures/."""
    refs = FIGURE_REF.findall((Path(build_dir) / "paper.md").read_text())
    for _, rel in refs:
        assert (Path(build_dir) / rel).is_file(), f"paper.md references {rel}, which the build did not write"
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
    the paper.md whose figure references the page must show."""
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
    report = PageReport(url=driver.current_url, title=driver.title,
                        h1=[e.text for e in driver.find_elements(By.TAG_NAME, "h1")],
                        figures=figures, console=driver.get_log("browser"), resources=resources,
                        declared=declared_figures(build_dir))
    return report


def copy_build(build_dir: Path, dest: Path) -> Path:
    """A scratch copy of a paper's build/ folder (to break on purpose); returns the copy's path."""
    return Path(shutil.copytree(build_dir, Path(dest) / "build"))
