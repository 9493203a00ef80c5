"""The paper's HTML renders in a real browser (issue 13, item 7): headless Chromium (Debian's
package, through /usr/bin/chromedriver and Selenium, no network) opens the committed
paper/build/paper.html and a paper built afresh from the shipped processed data; the page has its
title and heading, every figure paper.md declares is there and decoded with a non-zero size, and
the console holds no error or warning (uncaught exceptions included). The helper (tests/browser.py)
is shown to catch a corrupted figure and an injected console error / warning / exception on
scratch copies of the paper.

Never skipped: a machine without Chromium fails here, saying to run scripts/setup.sh."""

import base64
import re
from pathlib import Path

import pytest

import browser
from engbench import paths

SHIPPED_BUILD = paths.REPO / "paper" / "build"


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for the whole module, always quit."""
    missing = None
    try:
        driver = browser.start_browser()
    except browser.BrowserMissing as e:
        missing = str(e)
    if missing:
        pytest.fail(missing, pytrace=False)     # a failure, never a skip
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def fresh_build(tmp_path_factory):
    """`engbench report` from the shipped processed tables (and the manifests of data/raw) into a
    scratch paper folder; its build/ directory."""
    from engbench.cli import main
    out = tmp_path_factory.mktemp("paper")
    assert main(["report", "--processed", str(paths.REPO / "data" / "processed"),
                 "--raw", str(paths.REPO / "data" / "raw"), "--out", str(out)]) == 0
    return out / "build"


def _assert_renders(chromium, build_dir: Path):
    report = browser.inspect(chromium, build_dir / "paper.html")
    assert report.url.startswith("file://")
    # how many figures to expect: the build's own declaration (paper.md's references), each one a
    # file the build wrote, and every SVG the build wrote is referenced
    svgs = sorted(p.name for p in (build_dir / "figures").glob("*.svg"))
    assert sorted(Path(p).name for _, p in report.declared) == svgs
    assert report.declared, "the paper declares no figure: nothing to check"
    assert report.title.startswith("engbench"), report.title
    assert report.problems() == [], "\n".join(report.problems())
    assert len(report.figures) == len(report.declared)
    assert all(f.ok for f in report.figures)
    return report


def test_committed_paper_renders_with_every_figure_and_a_quiet_console(chromium):
    _assert_renders(chromium, SHIPPED_BUILD)


def test_freshly_built_paper_renders_with_every_figure_and_a_quiet_console(chromium, fresh_build):
    _assert_renders(chromium, fresh_build)


# --- the checks fail on a broken paper --------------------------------------------------------

def _scratch(tmp_path) -> Path:
    return browser.copy_build(SHIPPED_BUILD, tmp_path)


def _data_uris(html: str) -> list[re.Match]:
    return list(re.finditer(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html))


def test_a_figure_with_a_corrupted_data_uri_is_named(chromium, tmp_path):
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    uris = _data_uris(html)
    assert len(uris) >= 2
    victim = 2
    m = uris[victim - 1]
    svg = base64.b64decode(m.group(1))
    bad = base64.b64encode(svg[: len(svg) // 2]).decode()     # cut half-way: no longer valid SVG
    (build / "paper.html").write_text(html[: m.start(1)] + bad + html[m.end(1):])

    report = browser.inspect(chromium, build / "paper.html")
    assert [f.index for f in report.broken_figures] == [victim]
    broken = report.broken_figures[0]
    assert broken.alt == report.declared[victim - 1][0]
    assert any(p.startswith(f"broken figure {victim} ") for p in report.problems()), report.problems()
    with pytest.raises(AssertionError, match=f"broken figure {victim} "):
        _assert_renders(chromium, build)


def test_a_figure_missing_from_the_page_is_counted(chromium, tmp_path):
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    m = _data_uris(html)[0]
    start, end = html.rindex("<img", 0, m.start()), html.index(">", m.end()) + 1
    (build / "paper.html").write_text(html[:start] + html[end:])
    report = browser.inspect(chromium, build / "paper.html")
    assert len(report.figures) == len(report.declared) - 1
    assert any("declared in paper.md" in p for p in report.problems()), report.problems()


@pytest.mark.parametrize("script, level, text", [
    ('console.error("injected-error-13")', "SEVERE", "injected-error-13"),
    ('console.warn("injected-warning-13")', "WARNING", "injected-warning-13"),
    ('throw new Error("injected-exception-13")', "SEVERE", "injected-exception-13"),
    ('setTimeout(() => { null.x; }, 0)', "SEVERE", "TypeError"),
])
def test_console_errors_warnings_and_exceptions_are_reported(chromium, tmp_path, script, level, text):
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    (build / "paper.html").write_text(html.replace("</body>", f"<script>{script}</script>\n</body>", 1))
    report = browser.inspect(chromium, build / "paper.html")
    hits = [e for e in report.console_problems if text in e["message"]]
    assert hits and hits[0]["level"] == level, report.console
    assert any(p.startswith(f"console {level}:") and text in p for p in report.problems())
    assert not report.broken_figures
    with pytest.raises(AssertionError, match=text):
        _assert_renders(chromium, build)


def test_an_external_reference_fails_without_going_out(chromium, tmp_path):
    """The page may use nothing but itself: a figure from the network is broken (no host name
    resolves in this browser) and named as fetched from outside the page."""
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    (build / "paper.html").write_text(
        html.replace("</body>", '<img alt="remote" src="https://example.com/figure.png">\n</body>', 1))
    report = browser.inspect(chromium, build / "paper.html")
    assert [f.alt for f in report.broken_figures] == ["remote"]
    assert "https://example.com/figure.png" in report.external_resources


def test_a_machine_without_chromium_fails_with_the_fix(monkeypatch, tmp_path):
    """No skip when the browser is missing: start_browser refuses, naming scripts/setup.sh (the
    module fixture turns that into a failure)."""
    for name in ("CHROMIUM", "CHROMEDRIVER"):
        with monkeypatch.context() as m:
            m.setattr(browser, name, str(tmp_path / "absent"))
            with pytest.raises(browser.BrowserMissing, match=r"absent missing: run `bash scripts/setup.sh`"):
                browser.start_browser()
