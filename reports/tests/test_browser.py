"""The report in a real browser: headless Chromium from Debian, driven by Selenium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from handoff_reports.claims_file import load_claims
from handoff_reports.report import main as report_main

FIXTURES = Path(__file__).parent / "fixtures"
H200_MAIN_JOB = (
    Path(__file__).parent.parent.parent / "docs" / "results" / "runs" / "h200-default-profile.json"
)
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

pytestmark = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()),
    reason="needs Debian's chromium and chromium-driver (ci/setup installs them)",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1300,900"):  # fmt: skip
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def _screenshot_path(tmp_path: Path, name: str) -> Path:
    # HANDOFF_SCREENSHOT_DIR keeps the picture (the closing note shows one); else the test's tmp.
    directory = Path(os.environ.get("HANDOFF_SCREENSHOT_DIR", tmp_path))
    directory.mkdir(parents=True, exist_ok=True)
    return directory / name


@pytest.mark.parametrize(
    "fixtures",
    [["real/h200-nightly.json", "real/h200x4-multi_gpu.json"], ["real/cpu-only.json"]],
    ids=["gpu", "cpu-only"],
)
def test_every_plot_renders_and_the_console_is_clean(
    browser: object, tmp_path: Path, fixtures: list[str]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    page = tmp_path / "report.html"
    assert report_main([str(FIXTURES / f) for f in fixtures] + ["-o", str(page)]) == 0
    browser.get_log("browser")  # drop anything from earlier pages
    browser.get(page.as_uri())

    plots = browser.find_elements(By.CSS_SELECTOR, "svg.plot")
    assert plots, "the report has no plots"
    for plot in plots:
        size = plot.size
        title = plot.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        assert size["width"] > 100 and size["height"] > 100, f"{title} is not rendered: {size}"
        drawn = browser.execute_script("return arguments[0].querySelectorAll('path').length", plot)
        assert drawn > 5, f"{title} has nothing drawn in it"

    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []

    height = browser.execute_script("return document.body.scrollHeight")
    browser.set_window_size(1300, min(int(height) + 100, 16000))
    picture = _screenshot_path(tmp_path, f"report-{'-'.join(Path(f).stem for f in fixtures)}.png")
    assert browser.save_screenshot(str(picture))
    assert picture.stat().st_size > 10_000


# Every line a variant draws, as (plot title, variant, stroke colour the browser computed).
_VARIANT_LINES_SCRIPT = """
const lines = [];
for (const plot of document.querySelectorAll('svg.plot')) {
  const title = plot.querySelector('title').textContent;
  for (const group of plot.querySelectorAll('g[id*="-variant-"]')) {
    const path = group.querySelector('path');
    if (!path) continue;
    const variant = group.id.replace(/^.*?-variant-/, '').replace(/-[0-9]+$/, '');
    lines.push([title, variant, getComputedStyle(path).stroke]);
  }
}
return lines;
"""


def test_the_claims_come_first_and_each_variant_keeps_its_colour_in_every_plot(
    browser: object, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    page = tmp_path / "report.html"
    fixtures = ["real/h100-default-profile.json", "real/h200x4-multi_gpu.json"]
    assert report_main([str(FIXTURES / f) for f in fixtures] + ["-o", str(page)]) == 0
    browser.get(page.as_uri())

    # The articles' claims open the page, each with the rows that decided it; the headline
    # follows, a line per pattern, and its figure over the floor (this run's postproc seed, from
    # a file without intervals) is marked.
    sections = [h2.get_attribute("id") for h2 in browser.find_elements(By.CSS_SELECTOR, "h2")]
    assert sections[:2] == ["claims", "headline"]
    claims = browser.find_element(By.ID, "claims-table")
    assert len(claims.find_elements(By.CSS_SELECTOR, "tr")) == 1 + len(load_claims())
    linked = claims.find_elements(By.CSS_SELECTOR, "a[href^='#pattern-']")
    assert linked and all(
        browser.find_elements(By.ID, str(link.get_attribute("href")).split("#")[1])
        for link in linked
    )
    table = browser.find_element(By.ID, "headline-table")
    first_cells = [row.find_elements(By.TAG_NAME, "td")[:1]
                   for row in table.find_elements(By.CSS_SELECTOR, "tr")]  # fmt: skip
    patterns = {cells[0].text.split("\n")[0] for cells in first_cells if cells}
    assert {"pool_prep", "queued_worker", "postproc_split", "tensor_transfer"} <= patterns
    assert "multi_gpu" in patterns
    assert "SUSPECT" in table.text

    lines = browser.execute_script(_VARIANT_LINES_SCRIPT)
    colours: dict[str, set[str]] = {}
    plots_of: dict[str, set[str]] = {}
    for title, variant, stroke in lines:
        colours.setdefault(variant, set()).add(stroke)
        plots_of.setdefault(variant, set()).add(title)
    assert {v: c for v, c in colours.items() if len(c) > 1} == {}, "a variant changed colour"
    assert len(plots_of.get("shm_pinned", set())) >= 3, "shm_pinned should be in several plots"
    assert colours["shm_pinned"] != colours["vmm_fd"]

    # The 4-GPU fixture's scaling plot: time, speedup and efficiency, each against 1 to 4 GPUs.
    scaling = [plot for plot in browser.find_elements(By.CSS_SELECTOR, "svg.plot")
               if plot.find_element(By.TAG_NAME, "title").get_attribute("textContent")
               .startswith("multi-GPU scaling against GPU count")]  # fmt: skip
    assert scaling, "the report has no multi-GPU scaling plot"
    text = scaling[0].text
    for label in ("GPUs", "speedup", "scaling efficiency"):
        assert label in text
    assert {"1", "2", "4"} <= set(text.split())
    drawn = [variant for title, variant, _ in lines if title.startswith("multi-GPU scaling")]
    assert "kernel_only" in drawn and len(drawn) >= 6  # each series in all three panels

    browser.set_window_size(1300, 2400)
    picture = _screenshot_path(tmp_path, "report-headline.png")
    assert browser.save_screenshot(str(picture))
    assert picture.stat().st_size > 10_000


# Every text a plot draws (its title, ticks, labels, legend), as (plot title, how far outside the
# plot's box it reaches, in pixels): empty when nothing is clipped.
_CLIPPED_TEXT_SCRIPT = """
const out = [];
for (const plot of document.querySelectorAll('svg.plot')) {
  const title = plot.querySelector('title').textContent;
  const box = plot.getBoundingClientRect();
  for (const text of plot.querySelectorAll('text, g[id^="text_"]')) {
    const r = text.getBoundingClientRect();
    if (r.width === 0) continue;
    const outside = Math.max(box.left - r.left, r.right - box.right, box.top - r.top,
                             r.bottom - box.bottom);
    if (outside > 1) { out.push([title, outside]); break; }
  }
}
return out;
"""


def test_no_title_tick_or_legend_of_the_h200_report_is_clipped(
    browser: object, tmp_path: Path
) -> None:
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    page = tmp_path / "report.html"
    # The H200 main job the results page shows, and the 4-GPU run.
    files = [H200_MAIN_JOB, FIXTURES / "real" / "h200x4-multi_gpu.json"]
    assert report_main([str(f) for f in files] + ["-o", str(page)]) == 0
    browser.get(page.as_uri())
    assert browser.execute_script(_CLIPPED_TEXT_SCRIPT) == []
