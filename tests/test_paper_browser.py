"""The paper's HTML renders in a real browser (issue 13, item 7): headless Chromium (Debian's
package, through /usr/bin/chromedriver and Selenium, no network) opens the committed
paper/build/paper.html and a paper built afresh from the shipped processed data; the page has its
title and heading, every figure paper.md declares is there and decoded with a non-zero size, and
the console holds no error or warning (uncaught exceptions included).

Never skipped: a machine without Chromium fails here, saying to run scripts/setup.sh."""

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


def test_a_machine_without_chromium_fails_with_the_fix(monkeypatch, tmp_path):
    """No skip when the browser is missing: start_browser refuses, naming scripts/setup.sh (the
    module fixture turns that into a failure)."""
    for name in ("CHROMIUM", "CHROMEDRIVER"):
        with monkeypatch.context() as m:
            m.setattr(browser, name, str(tmp_path / "absent"))
            with pytest.raises(browser.BrowserMissing, match=r"absent missing: run `bash scripts/setup.sh`"):
                browser.start_browser()
