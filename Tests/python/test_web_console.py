"""`serve`'s web console (the ready line's "console", <control>/ui) in a real browser (headless chromium).

A push sent with curl appears in the delivery log without a reload; the send form checks with the gateway's rules,
delivers to the simulated iPhone and shows the answer; tapping the notification in the drawn Notification Center
moves the device; the console answers loopback names only.
"""
import json
import signal
import subprocess
import time
import urllib.error
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

import browser
from conftest import KEY_ID, PUSHCHECK, ROOT, TEAM_ID, serve_config, start_serve, stop

TOPIC = "com.example.pushdemo"


def wait(chrome, condition, seconds=15):
    """Waits for `condition`; the console redraws a panel when something changes, so stale elements are retried."""
    return WebDriverWait(chrome, seconds, ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def click_card(chrome, title):
    """Taps the drawn notification titled `title` (found again if the panel was redrawn meanwhile)."""
    def attempt(d):
        for card in d.find_elements(By.CSS_SELECTOR, "#devices .notif[data-notification]"):
            if title in card.text:
                card.click()
                return True
        return False
    return wait(chrome, attempt)


def open_console(chrome, serve):
    assert serve.ready["console"] == serve.control + "/ui"
    chrome.get(serve.ready["console"])
    WebDriverWait(chrome, 15).until(lambda d: d.find_element(By.ID, "live").text == "live")
    WebDriverWait(chrome, 10).until(lambda d: d.find_element(By.ID, "token").get_attribute("value") == serve.token())


def curl_push(serve, title, token=None, expect="200", url="https://example.com/a"):
    bearer = subprocess.run([PUSHCHECK, "jwt", "--team-id", TEAM_ID, "--key-id", KEY_ID, "--key", serve.key],
                            capture_output=True, text=True, check=True).stdout.strip()
    payload = json.dumps({"aps": {"alert": {"title": title}}, "url": url})
    out = subprocess.run(["curl", "-s", "--http2", "--cacert", serve.ca, "-o", "/dev/null", "-w", "%{http_code}",
                          "-H", f"authorization: bearer {bearer}", "-H", f"apns-topic: {TOPIC}", "-d", payload,
                          f"{serve.sandbox}/3/device/{token or serve.token()}"], capture_output=True, text=True,
                         timeout=30)
    assert out.stdout == expect, out.stderr


def test_a_push_sent_with_curl_appears_live(serve, chrome):
    open_console(chrome, serve)
    chrome.execute_script("window.__sameDocument = true")
    curl_push(serve, "Sent with curl")
    def row_shown(d):
        for r in d.find_elements(By.CSS_SELECTOR, "#log-rows tr[data-status]"):
            if TOPIC in r.text and r.get_attribute("data-status") == "200":
                r.click()
                return True
        return False
    wait(chrome, row_shown)
    assert chrome.execute_script("return window.__sameDocument") is True  # no reload
    detail = chrome.find_element(By.ID, "log-detail")
    WebDriverWait(chrome, 5).until(lambda d: "Sent with curl" in detail.text)
    assert f'"kid": "{KEY_ID}"' in detail.text and f'"iss": "{TEAM_ID}"' in detail.text
    assert browser.console_errors(chrome) == []


def test_the_send_form_checks_delivers_and_a_tap_moves_the_device(serve, chrome):
    open_console(chrome, serve)
    # The gateway's own rules while typing: a background push at priority 10 is BadPriority.
    Select(chrome.find_element(By.ID, "push_type")).select_by_value("background")
    Select(chrome.find_element(By.ID, "priority")).select_by_value("10")
    WebDriverWait(chrome, 5).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#check .problem[data-reason=BadPriority]"))
    Select(chrome.find_element(By.ID, "push_type")).select_by_value("alert")
    payload = chrome.find_element(By.ID, "payload")
    payload.clear()
    payload.send_keys(json.dumps({"aps": {"alert": {"title": "From the form", "body": "Order 42 shipped"}},
                                  "url": "https://example.com/orders/42"}))
    WebDriverWait(chrome, 5).until(lambda d: "passes the gateway" in d.find_element(By.ID, "check").text)

    chrome.find_element(By.ID, "send").click()
    box = WebDriverWait(chrome, 15).until(lambda d: d.find_element(By.ID, "answer-box"))
    assert box.get_attribute("data-status") == "200", box.text
    assert "console key CONSOLE001" in box.text and "apns-id" in box.text

    # The device got it: drawn in its Notification Center; a tap there opens the detail screen.
    wait(chrome, lambda d: any("From the form" in c.text for c in d.find_elements(By.CSS_SELECTOR, "#devices .notif")))
    browser.screenshot(chrome, "console.png")
    click_card(chrome, "From the form")
    wait(chrome, lambda d: "From the form" in d.find_element(By.CSS_SELECTOR, f"[data-screens='{TOPIC}']").text)
    navigation = serve.get("/devices/iphone")["apps"][TOPIC]["navigation"]
    assert [s["id"] for s in navigation["stack"]] == ["detail"] and navigation["stack"][0]["title"] == "From the form"
    assert browser.console_errors(chrome) == []


def test_a_refused_send_shows_the_reason(serve, chrome):
    open_console(chrome, serve)
    token = chrome.find_element(By.ID, "token")
    token.clear()
    token.send_keys("00" * 32)
    chrome.find_element(By.ID, "send").click()
    box = WebDriverWait(chrome, 15).until(lambda d: d.find_element(By.ID, "answer-box"))
    assert box.get_attribute("data-status") == "400" and "BadDeviceToken" in box.text


def test_the_console_answers_loopback_names_only(serve):
    request = urllib.request.Request(serve.ready["console"], headers={"Host": "attacker.example"})
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("a foreign Host was served")
    except urllib.error.HTTPError as e:
        assert e.code == 403
    post = urllib.request.Request(serve.control + "/ui/api/send", data=b"{}", method="POST",
                                  headers={"content-type": "text/plain"})
    try:
        urllib.request.urlopen(post, timeout=10)
        raise AssertionError("a form-encoded POST was accepted")
    except urllib.error.HTTPError as e:
        assert e.code == 415


SECOND_APP = """
  - bundle_id: com.example.second
    team_id: ABCDE12345
    aps_environment: development
    profile: { name: Second Development, devices: [00008110-000A1C2E0E12801E] }
"""


def test_a_device_is_redrawn_only_when_it_changed_and_keeps_the_app_picked(tmp_path, p8_key, chrome):
    config = serve_config(p8_key).replace("\ndevices:", SECOND_APP + "\ndevices:").replace(
        "apps: [com.example.pushdemo]", "apps: [com.example.pushdemo, com.example.second]")
    serve = start_serve(tmp_path, p8_key, config_text=config)
    try:
        open_console(chrome, serve)
        picker = Select(chrome.find_element(By.CSS_SELECTOR, "#devices [data-device=iphone] select"))
        assert [o.get_attribute("value") for o in picker.options] == ["com.example.pushdemo", "com.example.second"]
        picker.select_by_value("com.example.second")
        chrome.execute_script("document.querySelector('[data-device=iphone]').__drawn = 1")
        # A refused push changes the log, not the device: its section is the same element, its menu as picked.
        curl_push(serve, "Nobody's", token="00" * 32, expect="400")
        wait(chrome, lambda d: any(r.get_attribute("data-status") == "400"
                                   for r in d.find_elements(By.CSS_SELECTOR, "#log-rows tr[data-status]")))
        assert chrome.execute_script("return document.querySelector('[data-device=iphone]').__drawn") == 1
        # A delivered push changes the device: redrawn, with the app still the one picked.
        curl_push(serve, "Reaches the iPhone")
        wait(chrome, lambda d: any("Reaches the iPhone" in c.text
                                   for c in d.find_elements(By.CSS_SELECTOR, "#devices .notif")))
        assert chrome.execute_script("return document.querySelector('[data-device=iphone]').__drawn") is None
        picker = Select(chrome.find_element(By.CSS_SELECTOR, "#devices [data-device=iphone] select"))
        assert picker.first_selected_option.get_attribute("value") == "com.example.second"
        assert browser.console_errors(chrome) == []
    finally:
        stop(serve)


ANDROID_APP = """
  - package_name: com.example.shop
    firebase: { sender_id: "123456789012", project_id: shop-demo, app_id: "1:123456789012:android:0a1b2c3d" }
    manifest: { default_channel: orders }
    channels: [{ id: orders, importance: high }]
"""


def test_an_android_phone_is_drawn_with_its_own_facts_and_actions(tmp_path, p8_key, chrome):
    config = serve_config(p8_key).replace("\ndevices:", ANDROID_APP + "\ndevices:") + \
        "  - { name: pixel, platform: android, api_level: 34, apps: [com.example.shop] }\n"
    serve = start_serve(tmp_path, p8_key, config_text=config)
    try:
        open_console(chrome, serve)
        section = "#devices [data-device=pixel][data-platform=android]"
        wait(chrome, lambda d: "Android API 34" in d.find_element(By.CSS_SELECTOR, section).text)
        facts = chrome.find_element(By.CSS_SELECTOR, section + " [data-app='com.example.shop']").text
        assert "background" in facts and "POST_NOTIFICATIONS granted" in facts and ".MainActivity" in facts
        # The phone's own buttons act on it through the control endpoint; the section is redrawn from its snapshot.
        chrome.find_element(By.CSS_SELECTOR, section + " button[data-action='doze on']").click()
        wait(chrome, lambda d: "Doze" in d.find_element(By.CSS_SELECTOR, section + " .facts-line").text)
        chrome.find_element(By.CSS_SELECTOR, section + " button[data-action=force_stop]").click()
        wait(chrome, lambda d: "force-stopped" in
             d.find_element(By.CSS_SELECTOR, section + " [data-app='com.example.shop']").text)
        assert chrome.find_elements(By.CSS_SELECTOR, section + " button[data-action=expand]") == []
        assert browser.console_errors(chrome) == []
    finally:
        stop(serve)


FCM_CONFIG = """
fcm:
  projects: [{ id: shop-demo, number: "123456789012" }, { id: other-demo, number: "210987654321" }]
"""


def test_the_send_form_sends_through_fcm_to_the_android_phone(tmp_path, p8_key, chrome):
    """FCM from the console: the message's target filled from the picked app, FCM's rules while typing, the send over
    TLS/HTTP2 to serve's FCM listener with the console's service account, the answer with FCM's words, the phone's tray."""
    config = serve_config(p8_key).replace("\ndevices:", ANDROID_APP + "\ndevices:") + \
        "  - { name: pixel, platform: android, api_level: 34, apps: [com.example.shop] }\n" + FCM_CONFIG
    serve = start_serve(tmp_path, p8_key, config_text=config)
    try:
        fcm_token = serve.ready["devices"]["pixel"]["fcm_tokens"]["com.example.shop"]
        open_console(chrome, serve)
        Select(chrome.find_element(By.ID, "via")).select_by_value("fcm")
        assert not chrome.find_element(By.ID, "apns-form").is_displayed()
        wait(chrome, lambda d: fcm_token in d.find_element(By.ID, "message").get_attribute("value"))
        assert Select(chrome.find_element(By.ID, "project")).first_selected_option.get_attribute("value") == "shop-demo"

        # FCM's message rules as you type: a reserved data key is INVALID_ARGUMENT, named with its field.
        message = chrome.find_element(By.ID, "message")
        message.clear()
        message.send_keys(json.dumps({"token": fcm_token, "data": {"from": "x"}}))
        wait(chrome, lambda d: "INVALID_ARGUMENT" in d.find_element(By.ID, "check").text)
        # The token belongs to shop-demo: picking the other project is SenderId mismatch before anything is sent.
        message.clear()
        message.send_keys(json.dumps({"token": fcm_token, "notification": {"title": "From the console",
                                                                         "body": "Order 7 shipped"}}))
        wait(chrome, lambda d: "passes FCM" in d.find_element(By.ID, "check").text)
        Select(chrome.find_element(By.ID, "project")).select_by_value("other-demo")
        wait(chrome, lambda d: "SENDER_ID_MISMATCH" in d.find_element(By.ID, "check").text)
        Select(chrome.find_element(By.ID, "project")).select_by_value("shop-demo")
        wait(chrome, lambda d: "passes FCM" in d.find_element(By.ID, "check").text)

        chrome.find_element(By.ID, "send").click()
        box = wait(chrome, lambda d: d.find_element(By.ID, "answer-box"))
        assert box.get_attribute("data-status") == "200", box.text
        assert "projects/shop-demo/messages/" in box.text and "pushcheck-console@" in box.text and "HTTP/2" in box.text
        log = serve.get("/fcm/log")["entries"]
        assert log[-1]["status"] == 200 and log[-1]["path"] == "/v1/projects/shop-demo/messages:send"
        # The phone got it: the app is in the background, so the notification is in its tray.
        tray = serve.get("/devices/pixel")["tray"]
        assert [n["title"] for n in tray] == ["From the console"], tray
        wait(chrome, lambda d: "From the console" in d.find_element(By.CSS_SELECTOR, "#devices [data-device=pixel]").text)
        browser.screenshot(chrome, "console-fcm.png")

        # A refusal is shown with FCM's status and error code; no access token is 401.
        message.clear()
        message.send_keys(json.dumps({"token": "not-a-registered-token", "data": {"k": "v"}}))
        wait(chrome, lambda d: "400 INVALID_ARGUMENT" in d.find_element(By.ID, "check").text)
        chrome.find_element(By.ID, "send").click()
        wait(chrome, lambda d: d.find_element(By.ID, "answer-box").get_attribute("data-status") == "400")
        status_line = chrome.find_element(By.CSS_SELECTOR, "#answer-box .status").text
        # Status and error code are the same word here: said once (it read "400 INVALID_ARGUMENT INVALID_ARGUMENT").
        assert status_line == "400 INVALID_ARGUMENT", status_line
        Select(chrome.find_element(By.ID, "fcm_auth")).select_by_value("none")
        chrome.find_element(By.ID, "send").click()
        wait(chrome, lambda d: d.find_element(By.ID, "answer-box").get_attribute("data-status") == "401")
        assert "UNAUTHENTICATED" in chrome.find_element(By.ID, "answer-box").text
        assert browser.console_errors(chrome) == []
    finally:
        stop(serve)


def test_the_console_fcm_form_is_refused_when_it_cannot_be_sent(serve):
    """Without fcm: in the config the console says so; an unknown field or a bad project is a 400, never a send."""
    def post(body):
        req = urllib.request.Request(serve.control + "/ui/api/send", data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as e:
            return e.code, json.load(e)
    status, body = post({"via": "fcm", "project": "shop-demo", "message": "{}"})
    assert status == 409 and "fcm:" in body["error"]
    status, body = post({"via": "fcm", "project": "shop-demo", "message": "{}", "topic": "news"})
    assert status == 400 and "unknown field 'topic'" in body["error"]
    status, body = post({"via": "fcm", "project": "a/b", "message": "{}"})
    assert status == 400 and "project" in body["error"]
    status, body = post({"via": "carrier-pigeon"})
    assert status == 400 and "via must be apns or fcm" in body["error"]


def log_rows(chrome):
    return [r.text for r in chrome.find_elements(By.CSS_SELECTOR, "#log-rows tr[data-status]")]


def test_the_log_reads_from_the_start_again_after_it_was_cleared(serve, chrome):
    """POST /reset and DELETE /apns/log number the log from 1 again: the open page shows the pushes after them
    (it read /apns/log?after=<the old last> and so showed "No requests yet" until a reload)."""
    open_console(chrome, serve)
    chrome.execute_script("window.__sameDocument = true")
    for n in range(3):
        curl_push(serve, f"Before {n}")
    wait(chrome, lambda d: len(log_rows(d)) == 3)
    serve.post("/reset")
    wait(chrome, lambda d: "No requests yet" in d.find_element(By.ID, "log-rows").text)
    curl_push(serve, "After the reset")
    wait(chrome, lambda d: len(log_rows(d)) == 1)
    request = urllib.request.Request(serve.control + "/apns/log", method="DELETE")
    urllib.request.urlopen(request, timeout=10).read()
    wait(chrome, lambda d: "No requests yet" in d.find_element(By.ID, "log-rows").text)
    curl_push(serve, "After the delete")
    wait(chrome, lambda d: len(log_rows(d)) == 1)
    assert chrome.execute_script("return window.__sameDocument") is True
    assert browser.console_errors(chrome) == []


def test_a_stopped_serve_is_said_at_once_and_a_send_says_it_was_not_sent(tmp_path, p8_key, chrome):
    serve = start_serve(tmp_path, p8_key)
    try:
        open_console(chrome, serve)
    finally:
        stop(serve)
    # Send: an answer that says why, the header disconnected at once (not "live" until the long poll gave up).
    chrome.find_element(By.ID, "send").click()
    box = wait(chrome, lambda d: d.find_element(By.ID, "answer-box"), seconds=3)
    assert box.get_attribute("data-status") == "0" and "not sent: serve is unreachable" in box.text, box.text
    assert chrome.find_element(By.ID, "live").text == "disconnected (retrying)"
    # The form check says so too, instead of throwing.
    Select(chrome.find_element(By.ID, "priority")).select_by_value("5")
    wait(chrome, lambda d: "not checked: serve is unreachable" in d.find_element(By.ID, "check").text, seconds=3)
    assert browser.console_errors(chrome, allow=("Failed to load resource", "ERR_CONNECTION_REFUSED")) == []


def test_a_stopping_serve_is_said_within_a_second_not_after_its_grace(tmp_path, p8_key, chrome):
    """SIGTERM with a 5 s grace: the console's held long poll kept the header "live" until serve exited; serve now
    answers it at once (503) and the header says disconnected within about a second."""
    serve = start_serve(tmp_path, p8_key, "--grace", "5")
    try:
        open_console(chrome, serve)
        time.sleep(0.5)  # the long poll is held now
        serve.process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        wait(chrome, lambda d: d.find_element(By.ID, "live").text == "disconnected (retrying)", seconds=3)
        assert time.monotonic() - started < 2, time.monotonic() - started
    finally:
        serve.process.wait(timeout=30)
    assert browser.console_errors(chrome, allow=("Failed to load resource", "ERR_CONNECTION_REFUSED", "503")) == []


def test_the_form_check_shows_one_answer_the_latest(serve, chrome):
    """On load the check ran twice (after the target was picked, then once more) and both answers were shown; an
    older answer arriving after a newer one must not be drawn either."""
    open_console(chrome, serve)
    wait(chrome, lambda d: "passes the gateway" in d.find_element(By.ID, "check").text)
    assert len(chrome.find_elements(By.CSS_SELECTOR, "#check > div")) == 1, chrome.find_element(By.ID, "check").text
    # A slow first answer (BadPriority) overtaken by a fast second one (passes): only the second is drawn.
    chrome.execute_script("""
        const real = window.fetch; let n = 0;
        window.fetch = function (path, init) {
          if (String(path).endsWith('/ui/api/check') && n++ === 0)
            return new Promise(r => setTimeout(r, 1500)).then(() => real(path, init));
          return real(path, init);
        };
        const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
        set('push_type', 'background'); set('priority', '10');
        setTimeout(() => set('push_type', 'alert'), 600);
        setTimeout(() => { window.__settled = true; }, 2500);""")
    wait(chrome, lambda d: d.execute_script("return window.__settled") is True)
    text = chrome.find_element(By.ID, "check").text
    assert "passes the gateway" in text and "BadPriority" not in text, text
    assert len(chrome.find_elements(By.CSS_SELECTOR, "#check > div")) == 1, text


def test_an_error_answer_says_each_sentence_once(serve, chrome):
    open_console(chrome, serve)
    Select(chrome.find_element(By.ID, "push_type")).select_by_value("background")
    Select(chrome.find_element(By.ID, "priority")).select_by_value("10")
    chrome.find_element(By.ID, "send").click()
    box = wait(chrome, lambda d: d.find_element(By.ID, "answer-box"))
    assert "BadPriority" in box.text
    lines = [line for line in box.text.split("\n") if line.strip()]
    assert len(lines) == len(set(lines)), box.text


def test_a_page_the_web_view_refuses_is_said_in_the_device_section(serve, chrome):
    open_console(chrome, serve)
    curl_push(serve, "Scripted", url="javascript:window.__ran=1")
    click_card(chrome, "Scripted")
    # The tap redraws the section: wait for the screen it opened, then press the button (found again if redrawn).
    wait(chrome, lambda d: "Scripted" in d.find_element(By.CSS_SELECTOR, f"[data-screens='{TOPIC}']").text)
    wait(chrome, lambda d: d.find_element(
        By.CSS_SELECTOR, "#devices [data-device=iphone] button[data-action='load page']").click() or True)
    note = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, "#devices [data-device=iphone] .device-note").text)
    assert "cancelled" in note and "scheme 'javascript' is not loaded by the web view" in note, note
    assert chrome.execute_script("return window.__ran") is None


def test_an_android_only_serve_opens_on_fcm_with_android_words_and_fcm_errors(tmp_path, p8_key, chrome):
    """No iPhone app: the form opens on FCM (not APNs with no target and a red MissingDeviceToken); the Pixel's
    notifications are not "Notification Center"; an FCM refusal in the log shows FCM's error, not the status alone."""
    config = f"include: [{ROOT}/Suites/apps/android-shop.yaml]\n" + FCM_CONFIG
    serve = start_serve(tmp_path, p8_key, config_text=config)
    try:
        chrome.get(serve.ready["console"])
        WebDriverWait(chrome, 15).until(lambda d: d.find_element(By.ID, "live").text == "live")
        fcm_token = serve.ready["devices"]["pixel"]["fcm_tokens"]["com.example.shop"]
        wait(chrome, lambda d: fcm_token in d.find_element(By.ID, "message").get_attribute("value"))
        assert Select(chrome.find_element(By.ID, "via")).first_selected_option.get_attribute("value") == "fcm"
        wait(chrome, lambda d: "passes FCM" in d.find_element(By.ID, "check").text)
        assert "MissingDeviceToken" not in chrome.find_element(By.ID, "check").text
        pixel = chrome.find_element(By.CSS_SELECTOR, "#devices [data-device=pixel]").text
        assert "Notification Center" not in pixel and "Notifications" in pixel, pixel
        # A refusal: the log row says FCM's error status as an APNs row says its reason.
        Select(chrome.find_element(By.ID, "project")).select_by_value("other-demo")
        wait(chrome, lambda d: "SENDER_ID_MISMATCH" in d.find_element(By.ID, "check").text)
        chrome.find_element(By.ID, "send").click()
        wait(chrome, lambda d: any("403" in r.text and "SENDER_ID_MISMATCH" in r.text
                                   for r in d.find_elements(By.CSS_SELECTOR, "#log-rows tr[data-status]")))
        assert browser.console_errors(chrome) == []
    finally:
        stop(serve)
