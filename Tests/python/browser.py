"""A real browser for the web tests: Debian's chromium, headless, driven by chromium-driver through selenium.

`make deps` installs both packages. Without them the tests skip with the reason on a developer's machine; in CI
(CI set) a missing browser is a failure, so the tests can never silently not run there.
"""
import json
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "Reports" / "screenshots"


def executables():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
    return chromium, driver


def start():
    chromium, driver = executables()
    if not chromium or not driver:
        reason = ("chromium and chromium-driver are not installed (make deps installs them: "
                  "apt-get install chromium chromium-driver)")
        if os.environ.get("CI"):
            pytest.fail("CI must run the browser tests: " + reason)
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000",
                "--no-first-run", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-default-apps"):
        options.add_argument(arg)
    # Console messages (errors must be none) and the DevTools network log (no request may leave a report).
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def console_errors(driver, allow=()):
    """Browser console messages of level SEVERE, except those containing one of `allow`."""
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and not any(a in e["message"] for a in allow)]


def requested_urls(driver):
    """Every URL the page asked the network stack for (DevTools Network.requestWillBeSent), since the last call."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def screenshot(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    driver.save_screenshot(str(path))
    return path


def element_screenshot(element, name):
    """One element's picture (the diagram, a row of phones), cropped to it: small enough for the README."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    element.parent.execute_script("arguments[0].scrollIntoView({block: 'start'})", element)
    element.screenshot(str(path))
    return path
