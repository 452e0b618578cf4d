"""The HTML report (`pushcheck run --html`, `merge-reports --html`) in a real browser (headless chromium).

Opened from file:// as a user opens a CI artifact: it must draw without console errors, contact nothing, filter,
open a scenario by click and by URL fragment, and show hostile payload text as text. A shard written by hand with
trace events checks the sequence diagram, the pictures and the sandboxed page through `merge-reports`.
"""
import http.server
import json
import shutil
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import browser
from conftest import PUSHCHECK, ROOT

HOSTILE = "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">"

SUITE = f"""
name: web report fixture
world:
  include: apps/news-app.yaml
scenarios:
  - name: a tap opens the detail page
    tags: [web, smoke]
    steps:
      - send:
          payload: {{ aps: {{ alert: {{ title: Swift Evolution }} }}, url: "${{fixture.https}}/news/swift-evolution.html" }}
        expect: {{ status: 200 }}
      - tap
      - load_page
      - expect: {{ page: {{ status: 200, title: Swift Evolution }} }}
  - name: a hostile title stays text
    tags: [hostile]
    steps:
      - send:
          payload: {{ aps: {{ alert: {{ title: {json.dumps(HOSTILE)} }} }} }}
        expect: {{ status: 410 }}
  - name: not run today
    skip: the report shows skipped scenarios too
    steps:
      - send: {{ payload: {{ aps: {{ alert: skipped }} }} }}
"""


def run_suite(tmp_path: Path) -> Path:
    suites = tmp_path / "suites"
    (suites / "apps").mkdir(parents=True)
    shutil.copy(ROOT / "Suites" / "apps" / "news-app.yaml", suites / "apps")
    shutil.copytree(ROOT / "Suites" / "pages", suites / "pages")
    (suites / "web.yaml").write_text(SUITE)
    html = tmp_path / "report.html"
    done = subprocess.run([PUSHCHECK, "run", str(suites), "--junit", str(tmp_path / "junit.xml"), "--html", str(html),
                           "--seed", "7", "--color", "never"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr  # one scenario fails on purpose
    assert f"html report: {html}" in done.stdout
    return html


def wait_rows(driver, count=None):
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#list .row"))
    rows = driver.find_elements(By.CSS_SELECTOR, "#list .row")
    if count is not None:
        assert len(rows) == count
    return rows


def test_report_opens_from_disk_filters_and_shows_hostile_text_as_text(tmp_path, chrome):
    html = run_suite(tmp_path)
    chrome.get(html.as_uri())
    rows = wait_rows(chrome, 3)
    # Failed first, then passed, then skipped.
    assert [r.get_attribute("data-outcome") for r in rows] == ["failed", "passed", "skipped"]
    assert chrome.find_element(By.CSS_SELECTOR, "[data-outcome=failed] .n").text == "1"

    chrome.find_element(By.CSS_SELECTOR, ".chip[data-outcome=failed]").click()
    [row] = wait_rows(chrome, 1)
    assert "a hostile title stays text" in row.text
    row.click()
    detail = chrome.find_element(By.ID, "detail")
    WebDriverWait(chrome, 5).until(lambda d: "a hostile title stays text" in detail.text)
    failure = detail.find_element(By.CSS_SELECTOR, ".failure")
    assert "expect status" in failure.text and "410" in failure.text and "200" in failure.text
    assert "web.yaml:" in failure.find_element(By.CSS_SELECTOR, ".where").text
    assert "[APNs gateway]" in failure.text  # the hop the check is about
    transcript = detail.find_element(By.CSS_SELECTOR, "pre.transcript").text
    assert "<script>window.__pwned=1</script>" in transcript  # shown, as text
    assert chrome.execute_script("return window.__pwned") is None
    assert not detail.find_elements(By.CSS_SELECTOR, "script, img")
    # The fragment names the scenario: a link to it opens it.
    assert chrome.execute_script("return decodeURIComponent(location.hash.slice(1))").endswith("::a hostile title stays text")
    browser.screenshot(chrome, "report.png")

    # Nothing left the page: no resource entries, and the only request was the file itself.
    assert chrome.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert [u for u in browser.requested_urls(chrome) if not u.startswith("file://")] == []
    assert browser.console_errors(chrome) == []

    # Tag, suite and text filters.
    chrome.find_element(By.CSS_SELECTOR, ".chip[data-outcome=all]").click()
    chrome.find_element(By.CSS_SELECTOR, "#tag option[value=smoke]").click()
    [row] = wait_rows(chrome, 1)
    assert "a tap opens the detail page" in row.text
    chrome.find_element(By.CSS_SELECTOR, "#tag option[value='']").click()
    search = chrome.find_element(By.ID, "search")
    search.send_keys("not run")
    [row] = wait_rows(chrome, 1)
    assert row.get_attribute("data-outcome") == "skipped"


def test_a_fragment_link_opens_that_scenario(tmp_path, chrome):
    html = run_suite(tmp_path)
    scenario = f"{tmp_path / 'suites' / 'web.yaml'}::a tap opens the detail page"
    chrome.get(html.as_uri() + "#" + quote(scenario, safe=""))
    detail = chrome.find_element(By.ID, "detail")
    WebDriverWait(chrome, 5).until(lambda d: "a tap opens the detail page" in detail.text)
    assert "load_page" in detail.find_element(By.CSS_SELECTOR, "pre.transcript").text or \
        "web-view" in detail.find_element(By.CSS_SELECTOR, "pre.transcript").text
    assert browser.console_errors(chrome) == []


class Counter(http.server.BaseHTTPRequestHandler):
    """A server the hostile page points at: any hit means a request left the report."""
    hits = []

    def do_GET(self):
        Counter.hits.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def traced_shard(port: int) -> str:
    """A shard report as `run --html` writes it, with a trace as the runner will emit it (ReportData schema)."""
    jwt = "bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IktFWTEyMzQ1NjcifQ.eyJpc3MiOiJBQkNERTEyMzQ1IiwiaWF0IjoxNzAwMDAwMDAwfQ.…"
    page = (f'<!DOCTYPE html><title>Order 42</title><h1>Order 42</h1><script>parent.__pwned=3;document.title="ran"</script>'
            f'<img src="http://127.0.0.1:{port}/img"><link rel=stylesheet href="http://127.0.0.1:{port}/css">')
    notification = {"id": "n1", "app_name": "Shop", "bundle_id": "com.example.shop", "title": HOSTILE,
                    "subtitle": "Order 42", "body": "Your order has shipped", "thread_id": "orders", "badge": 3,
                    "banner": True, "list": True, "quiet": False, "actions": ["Track", "Cancel"],
                    "expanded": {"lines": ["Parcel 42 · out for delivery"], "actions": ["Track", "Cancel"]}}
    navigation = {"tabs": ["Home", "Orders"], "selected_tab": 1,
                  "stack": [{"id": "orders", "title": "Orders"}, {"id": "order", "title": "Order 42"}],
                  "alert": {"title": "確認", "message": "Leave this order?", "buttons": ["キャンセル", "OK"]}}
    trace = [
        {"kind": "request", "from": "runner", "to": "apns", "label": "POST /3/device/7c1f… (alert)", "at_ms": 1.5,
         "headers": [{"name": "apns-topic", "value": "com.example.shop"}, {"name": "authorization", "value": jwt}],
         "body": json.dumps({"aps": {"alert": {"title": HOSTILE}}, "order_id": "42"}),
         "jwt": {"header": '{"alg":"ES256","kid":"KEY1234567"}', "claims": '{"iss":"ABCDE12345","iat":1700000000}'}},
        {"kind": "response", "from": "apns", "to": "runner", "label": "200", "status": 200, "duration_ms": 2.25,
         "headers": [{"name": "apns-id", "value": "3f1c0e4a-0000-4000-8000-000000000001"}]},
        {"kind": "delivery", "from": "apns", "to": "device", "label": "delivered to iphone"},
        {"kind": "presented", "from": "device", "to": "device", "label": "banner + Notification Center",
         "notification": notification},
        {"kind": "callback", "from": "device", "to": "app", "label": "didReceive(response)"},
        {"kind": "navigation", "from": "app", "to": "router", "label": "route order → Orders > Order 42",
         "navigation": navigation, "step_line": 14},
        {"kind": "request", "from": "web-view", "to": "fixture", "label": "GET /orders/42"},
        {"kind": "page", "from": "fixture", "to": "web-view", "label": "200 Order 42", "status": 200,
         "page": {"requested_url": "http://fixture/o/42", "final_url": "http://fixture/orders/42", "status": 200,
                  "title": "Order 42", "redirects": [{"status": 302, "from": "http://fixture/o/42",
                                                      "to": "http://fixture/orders/42"}], "html": page}},
    ]
    case = {"id": "Suites/shop.yaml::the tap opens the order", "name": "the tap opens the order",
            "classname": "Suites/shop.yaml", "file": "Suites/shop.yaml", "line": 9, "time": 0.42, "tags": ["shop"],
            "outcome": "failed", "flaky": False,
            "problem": {"message": "expect navigation.title", "type": "assertion", "detail": ""},
            "failures": [{"message": "expect navigation.title", "expected": "\"Order 43\"", "actual": "\"Order 42\"",
                          "file": "Suites/shop.yaml", "line": 16, "column": 11, "events": "", "hop": "router"},
                         {"message": "snapshot 'the tap opens the order › opened' differs from shop.yaml.snap.json",
                          "expected": "the stored snapshot", "actual": "(the text)", "file": "Suites/shop.yaml",
                          "line": 17, "column": 11, "events": "", "hop": "router", "trace_index": 5,
                          "diff": "~ navigation.title: \"Order 43\" → \"Order 42\"\n+ navigation.events[2]: \"alert\""}],
            "retries": [], "transcript": "scenario: the tap opens the order", "stderr": "", "trace": trace}
    data = {"format": "pushcheck-report", "version": 1, "generator": "hand-written shard", "name": "pushcheck",
            "timestamp": "2026-01-01T00:00:00Z", "hostname": "ci", "wall_seconds": 3.5,
            "properties": [{"name": "seed", "value": "7"}],
            "suites": [{"name": "Suites/shop.yaml", "file": "Suites/shop.yaml", "timestamp": "2026-01-01T00:00:00Z",
                        "properties": [], "system_out": "", "system_err": "", "cases": [case]}]}
    embedded = json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<!DOCTYPE html><script type="application/json" id="pushcheck-data">{embedded}</script>'


def test_merged_trace_draws_the_diagram_the_pictures_and_a_sandboxed_page(tmp_path, chrome):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counter)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        shard1 = tmp_path / "report-1-of-2.html"
        shard1.write_text(traced_shard(server.server_address[1]))
        shard2 = run_suite(tmp_path).rename(tmp_path / "report-2-of-2.html")
        merged = tmp_path / "merged.html"
        done = subprocess.run([PUSHCHECK, "merge-reports", str(tmp_path / "junit-merged.xml"), str(shard1), str(shard2),
                               "--html", str(merged)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "4 scenarios in 2 suites" in done.stdout

        chrome.get(merged.as_uri() + "#" + quote("Suites/shop.yaml::the tap opens the order", safe=""))
        wait_rows(chrome, 4)
        detail = chrome.find_element(By.ID, "detail")
        WebDriverWait(chrome, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".seq svg"))
        titles = [t.text for t in detail.find_elements(By.CSS_SELECTOR, ".seq .life-title")]
        assert titles == ["runner", "APNs gateway", "device", "app callback", "router", "web view", "fixture server"]
        arrows = detail.find_elements(By.CSS_SELECTOR, ".seq .arrow")
        assert len(arrows) == 8
        assert [a.get_attribute("data-index") for a in detail.find_elements(By.CSS_SELECTOR, ".seq .arrow.bad")] == ["5"]
        # The failing hop is selected first: expected vs actual on the router's arrow.
        panel = chrome.find_element(By.ID, "hop-detail")
        assert "Order 43" in panel.text and "Order 42" in panel.text and "[router]" in panel.text
        # The snapshot's difference on the same hop, line by line: changed and added.
        assert [e.text for e in panel.find_elements(By.CSS_SELECTOR, ".diff .chg")] == [
            '~ navigation.title: "Order 43" → "Order 42"']
        assert [e.text for e in panel.find_elements(By.CSS_SELECTOR, ".diff .add")] == ['+ navigation.events[2]: "alert"']
        # The request's detail: headers (signature never shown), decoded claims, pretty payload.
        arrows[0].click()
        WebDriverWait(chrome, 5).until(lambda d: "apns-topic" in panel.text)
        assert '"iss": "ABCDE12345"' in panel.text and '"kid": "KEY1234567"' in panel.text
        body = panel.find_element(By.CSS_SELECTOR, "pre.body").text
        assert '"order_id": "42"' in body and "<script>" in body
        # Pictures: the notification as banner, lock screen and expanded with its actions; the screens with the
        # alert; the page with its redirect, in a sandbox without scripts.
        cards = detail.find_elements(By.CSS_SELECTOR, ".notif")
        assert cards and all(HOSTILE in c.text for c in cards if "Order 42" in c.text)
        assert [b.text for b in detail.find_elements(By.CSS_SELECTOR, ".expanded .action")][-2:] == ["Track", "Cancel"]
        assert "確認" in detail.find_element(By.CSS_SELECTOR, ".alert").text
        assert "Orders" in detail.find_element(By.CSS_SELECTOR, ".tabbar .on").text
        frames = detail.find_elements(By.CSS_SELECTOR, ".browser iframe")
        assert frames
        for frame in frames:
            assert frame.get_attribute("sandbox") == ""
            assert "allow-scripts" not in (frame.get_attribute("sandbox") or "")
        assert "302 http://fixture/o/42 → http://fixture/orders/42" in detail.text
        chrome.switch_to.frame(frames[0])
        assert chrome.find_element(By.TAG_NAME, "h1").text == "Order 42"
        # Its script would have renamed it "ran".
        assert chrome.find_element(By.TAG_NAME, "title").get_attribute("textContent") == "Order 42"
        chrome.switch_to.default_content()
        time.sleep(0.5)
        assert chrome.execute_script("return window.__pwned") is None
        assert Counter.hits == []
        assert [u for u in browser.requested_urls(chrome) if not u.startswith(("file://", "about:", "data:"))] == []
        # Only the page's blocked image and style sheet may complain (the report's policy refusing them).
        assert browser.console_errors(chrome, allow=("Content Security Policy", "Refused to")) == []
    finally:
        server.shutdown()


def test_a_large_report_is_gzipped_and_still_opens(tmp_path, chrome):
    """Past 256 KiB the data is embedded gzipped; the page inflates it itself (DecompressionStream), offline."""
    suites = tmp_path / "suites"
    (suites / "apps").mkdir(parents=True)
    shutil.copy(ROOT / "Suites" / "apps" / "news-app.yaml", suites / "apps")
    scenarios = "".join(f"""
  - name: push {i}
    steps:
      - send: {{ payload: {{ aps: {{ alert: {{ title: "Push {i}", body: "{'x' * 200}" }} }} }} }}
        expect: {{ status: 200 }}
""" for i in range(150))
    (suites / "many.yaml").write_text("name: many\nworld:\n  include: apps/news-app.yaml\nscenarios:" + scenarios)
    html = tmp_path / "big.html"
    done = subprocess.run([PUSHCHECK, "run", str(suites), "--junit", str(tmp_path / "j.xml"), "--html", str(html)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"encoding":"gzip+base64"' in html.read_text()
    chrome.get(html.as_uri() + "#" + quote(f"{suites / 'many.yaml'}::push 149", safe=""))
    rows = wait_rows(chrome, 150)
    assert rows[0].get_attribute("data-outcome") == "passed"
    WebDriverWait(chrome, 5).until(lambda d: "Push 149" in d.find_element(By.ID, "detail").text)
    assert browser.console_errors(chrome) == []
    assert [u for u in browser.requested_urls(chrome) if not u.startswith("file://")] == []


BROKEN = f"""
name: a real push whose page check is wrong on purpose
world:
  include: apps/news-app.yaml
scenarios:
  - name: the tap opens the page but its title is not the one expected
    tags: [broken]
    steps:
      - state: background
      - send:
          payload:
            aps: {{ alert: {{ title: Swift Evolution, body: {json.dumps(HOSTILE)} }} }}
            url: "${{fixture.https}}/__redirect?to=/news/swift-evolution.html&n=1"
        expect: {{ status: 200, delivered: true }}
      - tap
      - load_page
      - expect: {{ navigation: {{ top: detail }}, page: {{ status: 200, title: Not Swift Evolution }} }}
"""


def run_real_suites(tmp_path: Path) -> Path:
    """`pushcheck run Suites <broken>` with --html: the repository's suites as they are, plus one failing scenario
    that sends a hostile title for real, taps it and loads a redirected page from the fixture server."""
    broken = tmp_path / "broken"
    (broken / "apps").mkdir(parents=True)
    shutil.copy(ROOT / "Suites" / "apps" / "news-app.yaml", broken / "apps")
    (broken / "broken.yaml").write_text(BROKEN)
    html = tmp_path / "real.html"
    done = subprocess.run([PUSHCHECK, "run", "Suites", str(broken), "--junit", str(tmp_path / "real.xml"), "--html",
                           str(html), "--seed", "1", "--color", "never"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr  # only the broken scenario fails
    assert "1 failed" in done.stdout, done.stdout
    return html


def open_case(chrome, html: Path, case_id: str):
    chrome.get(html.as_uri() + "#" + quote(case_id, safe=""))
    WebDriverWait(chrome, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#detail .seq svg"))
    detail = chrome.find_element(By.ID, "detail")
    titles = [t.text for t in detail.find_elements(By.CSS_SELECTOR, ".seq .life-title")]
    labels = [a.find_element(By.TAG_NAME, "title").get_attribute("textContent")
              for a in detail.find_elements(By.CSS_SELECTOR, ".seq .arrow")]
    return detail, titles, labels


def test_a_real_run_draws_every_scenario_hop_by_hop(tmp_path, chrome):
    html = run_real_suites(tmp_path)
    broken_id = f"{tmp_path / 'broken' / 'broken.yaml'}::the tap opens the page but its title is not the one expected"
    detail, titles, labels = open_case(chrome, html, broken_id)
    assert browser.console_errors(chrome) == []
    # The hops of the transcript, in order: the runner's send to the gateway and its answer, the delivery, the
    # banner, the tap, the app's callback, the router, the web view's request through the redirect and the page.
    assert titles == ["runner", "APNs gateway", "device", "app callback", "router", "web view", "fixture server"]
    transcript = detail.find_element(By.CSS_SELECTOR, "pre.transcript").text
    assert "state background" in labels and "- line 9: state background" in transcript
    send = next(i for i, l in enumerate(labels) if l.startswith("POST /3/device/"))
    assert labels[send + 1] == "200" and "← 200 apns-id:" in transcript
    assert "tap n1" in labels and ": tap n1" in transcript
    assert any(l.startswith("routed detail") for l in labels) and "navigation routed detail (tap)" in transcript
    get = next(i for i, l in enumerate(labels) if l.startswith("GET https://127.0.0.1:"))
    assert "__redirect" in labels[get] and labels[get + 1] == "200 Swift Evolution"
    assert "web view loaded https://127.0.0.1:" in transcript
    # The failing check is marked on the web view's page arrow, with expected vs actual, and opened first.
    bad = [a for a in detail.find_elements(By.CSS_SELECTOR, ".seq .arrow.bad")]
    assert [a.get_attribute("data-index") for a in bad] == [str(get + 1)]
    assert bad[0].get_attribute("data-kind") == "page"
    assert "✗" in [t.text for t in detail.find_elements(By.CSS_SELECTOR, ".seq .fail-mark")]
    panel = chrome.find_element(By.ID, "hop-detail")
    assert "[web view] expect page.title" in panel.text
    assert '"Not Swift Evolution"' in panel.text and '"Swift Evolution"' in panel.text
    # The send's arrow: the apns-id the transcript printed, the provider token's claims, the payload as text.
    detail.find_elements(By.CSS_SELECTOR, ".seq .arrow")[send + 1].click()
    WebDriverWait(chrome, 5).until(lambda d: "apns-id" in panel.text)
    apns_id = panel.find_element(By.XPATH, ".//td[text()='apns-id']/following-sibling::td").text
    assert f"← 200 apns-id: {apns_id}" in transcript
    detail.find_elements(By.CSS_SELECTOR, ".seq .arrow")[send].click()
    WebDriverWait(chrome, 5).until(lambda d: "provider token" in panel.text)
    assert '"iss"' in panel.text and '"kid"' in panel.text
    assert "<script>window.__pwned=1</script>" in panel.find_element(By.CSS_SELECTOR, "pre.body").text
    # The notification as iOS drew it, with the hostile title as text; nothing of it ran.
    cards = detail.find_elements(By.CSS_SELECTOR, ".pictures .notif")
    assert cards and any(HOSTILE in c.text for c in cards)
    assert chrome.execute_script("return window.__pwned") is None
    assert not detail.find_elements(By.CSS_SELECTOR, "script, img")
    # The page as served, in a sandbox with scripts off, with the redirect's status.
    assert "302 https://127.0.0.1:" in detail.text and "__redirect" in detail.text
    frames = detail.find_elements(By.CSS_SELECTOR, ".browser iframe")
    assert frames and all(f.get_attribute("sandbox") == "" for f in frames)
    chrome.switch_to.frame(frames[0])
    assert chrome.find_element(By.TAG_NAME, "h1").text == "Swift Evolution"
    chrome.switch_to.default_content()
    assert [u for u in browser.requested_urls(chrome) if not u.startswith(("file://", "about:"))] == []
    browser.element_screenshot(detail.find_element(By.CSS_SELECTOR, ".seq"), "report-trace.png")

    # The repository's own suites: an FCM send and a `run:` backend are drawn with their hops too.
    _, titles, labels = open_case(chrome, html, "Suites/fcm-gateway.yaml::a notification message reaches the app through APNs")
    assert titles[:4] == ["runner", "FCM", "APNs gateway", "device"]
    assert labels[2] == "POST /v1/projects/fcm-demo/messages:send" and labels[3].startswith("POST /3/device/")
    assert labels[4:6] == ["200", "200"] and "delivered" in labels[6]
    _, titles, labels = open_case(
        chrome, html, "Suites/apns-gateway.yaml::the team's backend script pushes through the mock gateway [auth=token]")
    assert titles[:3] == ["runner", "backend (run:)", "APNs gateway"]
    assert labels[1].startswith("run ./scripts/notify-backend.sh") and labels[-1] == "exit 0"
    # A content extension expanded: the notification as banner, lock screen and expanded with its actions.
    detail, titles, labels = open_case(
        chrome, html, "Suites/seed-004-content-extension.yaml::the open action is handled by the extension, which "
        "opens the url and dismisses")
    assert "content extension" in titles and "KanmobaContent for Kanmoba" in labels
    pictures = detail.find_elements(By.CSS_SELECTOR, ".pictures")[0]
    assert pictures.find_elements(By.CSS_SELECTOR, ".expanded .action")
    browser.element_screenshot(pictures, "report-pictures.png")
    assert browser.console_errors(chrome) == []


def hand_shard(cases, properties=(), suite="Suites/shop.yaml", suite_extra=None) -> str:
    """A shard's HTML with `cases` (ReportData's case objects) in one suite, as `run --html` writes it."""
    data = {"format": "pushcheck-report", "version": 1, "generator": "hand-written shard", "name": "pushcheck",
            "timestamp": "2026-01-01T00:00:00Z", "hostname": "ci", "wall_seconds": 1.0,
            "properties": [{"name": n, "value": v} for n, v in properties],
            "suites": [dict({"name": suite, "file": suite, "timestamp": "2026-01-01T00:00:00Z", "properties": [],
                             "system_out": "", "system_err": "", "cases": cases}, **(suite_extra or {}))]}
    embedded = json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<!DOCTYPE html><script type="application/json" id="pushcheck-data">{embedded}</script>'


def hand_case(name, trace=(), transcript="", suite="Suites/shop.yaml"):
    return {"id": f"{suite}::{name}", "name": name, "classname": suite, "file": suite, "line": 3, "time": 0.1,
            "tags": [], "outcome": "passed", "flaky": False, "failures": [], "retries": [],
            "transcript": transcript, "stderr": "", "trace": list(trace)}


def merge_html(tmp_path, shards) -> Path:
    paths = []
    for i, text in enumerate(shards, 1):
        path = tmp_path / f"report-{i}-of-{len(shards)}.html"
        path.write_text(text)
        paths.append(str(path))
    merged = tmp_path / "merged.html"
    done = subprocess.run([PUSHCHECK, "merge-reports", str(tmp_path / "junit-merged.xml"), *paths, "--html", str(merged)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return merged


def presented(notification, *before):
    return [*before, {"kind": "presented", "from": "device", "to": "device", "label": "Notification Center",
                      "notification": dict({"id": "n1", "app_name": "Shop", "bundle_id": "com.example.shop",
                                            "title": "Order 42", "banner": False, "list": True, "quiet": False,
                                            "actions": []}, **notification)}]


def test_a_merged_report_names_every_shard_and_seed(tmp_path, chrome):
    merged = merge_html(tmp_path, [hand_shard([hand_case(f"case {i}")], [("seed", seed), ("shard", f"{i}/3")])
                                   for i, seed in ((1, "7"), (2, "8"), (3, "7"))])
    chrome.get(merged.as_uri())
    wait_rows(chrome, 3)
    facts = chrome.find_element(By.CSS_SELECTOR, "header .facts").text
    assert "shards 1–3 of 3" in facts and "seeds 7, 8" in facts, facts
    assert "shard 1/3" not in facts


def test_a_notification_without_a_banner_says_why(tmp_path, chrome):
    delivery = {"kind": "delivery", "from": "apns", "to": "device", "label": "delivered to iphone"}
    will_present = {"kind": "callback", "from": "device", "to": "app", "label": "willPresent",
                    "notes": ['willPresent({"aps":{}}) -> [list, sound]']}
    merged = merge_html(tmp_path, [hand_shard([
        hand_case("passive", presented({"interruption_level": "passive"}, delivery)),
        hand_case("foreground", presented({}, delivery, will_present)),
        hand_case("provisional", presented({"quiet": True}, delivery)),
        hand_case("alerts off", presented({}, delivery))])])
    expected = {"passive": "interruption-level passive",
                "foreground": "in the foreground and its willPresent answer left the banner out: [list, sound]",
                "provisional": "provisional authorization",
                "alerts off": "alerts (banners) are off in the app\u2019s notification settings"}
    for name, why in expected.items():
        chrome.get(merged.as_uri() + "#" + quote(f"Suites/shop.yaml::{name}", safe=""))
        note = WebDriverWait(chrome, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "#detail .no-banner"))
        assert why in note.text, (name, note.text)
        assert ("foreground" in note.text) == (name == "foreground"), (name, note.text)


def test_bidi_controls_are_shown_not_applied(tmp_path, chrome):
    """Trojan Source: a right-to-left override in a payload would show another text than was sent."""
    title = "Pay \u202eredro\u202c now \u2066x\u2069"
    body = json.dumps({"aps": {"alert": {"title": title}}}, ensure_ascii=False)
    trace = presented({"title": title, "banner": True}, {
        "kind": "request", "from": "runner", "to": "apns", "label": "POST /3/device/7c1f… (alert)", "body": body})
    merged = merge_html(tmp_path, [hand_shard([hand_case("bidi", trace, transcript="sent " + title)])])
    chrome.get(merged.as_uri() + "#" + quote("Suites/shop.yaml::bidi", safe=""))
    detail = WebDriverWait(chrome, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "#detail pre.body"))
    for where in (detail, chrome.find_element(By.CSS_SELECTOR, "#detail pre.transcript"),
                  chrome.find_element(By.CSS_SELECTOR, "#detail .notif .t")):
        assert "\\u202E" in where.text and "\\u202C" in where.text and "\\u2066" in where.text, where.text
        assert where.find_elements(By.CSS_SELECTOR, ".bidi")
    page_text = chrome.execute_script("return document.getElementById('detail').textContent")
    assert not any(c in page_text for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
    assert browser.console_errors(chrome) == []


def test_a_scenario_opens_from_the_keyboard(tmp_path, chrome):
    merged = merge_html(tmp_path, [hand_shard([hand_case("first"), hand_case("second")])])
    chrome.get(merged.as_uri())
    rows = wait_rows(chrome, 2)
    assert all(r.get_attribute("tabindex") == "0" for r in rows)
    from selenium.webdriver.common.keys import Keys
    rows[1].send_keys(Keys.ENTER)
    WebDriverWait(chrome, 5).until(lambda d: "second" in d.find_element(By.CSS_SELECTOR, "#detail h2").text)
    rows = wait_rows(chrome, 2)
    rows[0].send_keys(Keys.SPACE)
    WebDriverWait(chrome, 5).until(lambda d: "first" in d.find_element(By.CSS_SELECTOR, "#detail h2").text)


def test_a_page_past_64_kib_says_it_was_cut_on_a_character(tmp_path, chrome):
    suites = tmp_path / "suites"
    (suites / "apps").mkdir(parents=True)
    shutil.copy(ROOT / "Suites" / "apps" / "news-app.yaml", suites / "apps")
    shutil.copytree(ROOT / "Suites" / "pages", suites / "pages")
    big = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Big</title></head><body><p>' + "é" * 40000 +
           "</p></body></html>")
    (suites / "pages" / "news" / "big.html").write_text(big, encoding="utf-8")
    (suites / "big.yaml").write_text("""
name: a big page
world:
  include: apps/news-app.yaml
scenarios:
  - name: big page
    steps:
      - send:
          payload: { aps: { alert: { title: Big } }, url: "${fixture.https}/news/big.html" }
        expect: { status: 200 }
      - tap
      - load_page
""")
    html = tmp_path / "report.html"
    done = subprocess.run([PUSHCHECK, "run", str(suites), "--junit", str(tmp_path / "junit.xml"), "--html", str(html),
                           "--color", "never"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    chrome.get(html.as_uri() + "#" + quote(f"{suites / 'big.yaml'}::big page", safe=""))
    WebDriverWait(chrome, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#detail .browser"))
    note = chrome.find_element(By.CSS_SELECTOR, "#detail .browser .page-cut").text
    assert note == f"first 64 KiB of {len(big.encode()):,} bytes shown", note
    srcdoc = chrome.execute_script("return document.querySelector('#detail .browser iframe').srcdoc")
    assert srcdoc.endswith("é") and "\ufffd" not in srcdoc
    assert len(srcdoc.encode()) <= 64 * 1024


def test_the_suite_name_is_shown_beside_its_file(tmp_path, chrome):
    """A suite's `name:` was in neither report; the HTML shows it with the path (JUnit keeps the path as its name)."""
    html = run_suite(tmp_path)
    chrome.get(html.as_uri())
    rows = wait_rows(chrome)
    web = str(tmp_path / "suites" / "web.yaml")
    assert all(r.find_element(By.CSS_SELECTOR, ".suite").text == f"web report fixture · {web}" for r in rows)
    options = [o.text for o in chrome.find_elements(By.CSS_SELECTOR, "#suite option")]
    assert f"web report fixture · {web}" in options
    rows[0].click()
    WebDriverWait(chrome, 5).until(lambda d: "web report fixture · " in d.find_element(By.CSS_SELECTOR, "#detail .where").text)
    junit = (tmp_path / "junit.xml").read_text()
    assert f'<testsuite name="{web}"' in junit
