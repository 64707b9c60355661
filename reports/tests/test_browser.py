"""The report in a real browser: headless Chromium from Debian, driven by Selenium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from handoff_reports.report import main as report_main

FIXTURES = Path(__file__).parent / "fixtures"
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
