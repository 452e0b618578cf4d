# The pytest example in README.md ("CI harness: pushcheck serve under pytest"), kept runnable: if this
# file changes, change the README too.
import json, os, signal, ssl, subprocess, time, urllib.request

import httpx, jwt, pytest

PUSHCHECK = os.environ.get("PUSHCHECK", ".build/debug/pushcheck")


@pytest.fixture
def apns(tmp_path):
    key = tmp_path / "AuthKey_KEY1234567.p8"
    ec = subprocess.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout"], capture_output=True).stdout
    key.write_bytes(subprocess.run(["openssl", "pkcs8", "-topk8", "-nocrypt"], input=ec, capture_output=True).stdout)
    (tmp_path / "serve.yaml").write_text(f"""
apns: {{ keys: [{{ key_id: KEY1234567, team_id: ABCDE12345, private_key: {key} }}] }}
apps: [{{ bundle_id: com.example.app, team_id: ABCDE12345, aps_environment: development,
          profile: {{ devices: [00008110-000A1C2E0E12801E] }}, authorization: authorized }}]
devices: [{{ name: iphone, udid: 00008110-000A1C2E0E12801E, apps: [com.example.app] }}]
""")
    ready = tmp_path / "ready.json"
    serve = subprocess.Popen([PUSHCHECK, "serve", "--config", tmp_path / "serve.yaml", "--ready-file", ready])
    while not ready.exists():
        assert serve.poll() is None, "serve exited"
        time.sleep(0.05)
    info = json.loads(ready.read_text())
    info["key"] = key.read_text()
    yield info
    serve.send_signal(signal.SIGTERM)
    serve.wait()


def events(apns, type, wait="5s"):
    url = f"{apns['control']}/devices/iphone/events?since=0&wait={wait}&type={type}"
    return json.load(urllib.request.urlopen(url))["events"]


def test_order_shipped_push_reaches_the_phone(apns):
    # Your backend's sending code would go here; this is httpx over HTTP/2 with a PyJWT token.
    token = apns["devices"]["iphone"]["tokens"]["com.example.app"]
    bearer = jwt.encode({"iss": "ABCDE12345", "iat": int(time.time())}, apns["key"], algorithm="ES256",
                        headers={"kid": "KEY1234567"})
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=apns["ca"])) as client:
        r = client.post(f"{apns['apns']['sandbox']}/3/device/{token}",
                        headers={"authorization": f"bearer {bearer}", "apns-topic": "com.example.app"},
                        json={"aps": {"alert": {"title": "Order shipped"}}, "order_id": "42"})
    assert r.status_code == 200
    [shown] = events(apns, "notification-presented")
    assert shown["title"] == "Order shipped" and shown["user_info"]["order_id"] == "42"


def test_readme_shows_this_file():
    """The README's example is this file (comments and blank lines aside): it cannot drift."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    block = readme.split("**pytest with `serve` as a fixture**", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    code = Path(__file__).read_text().split("\n\n\ndef test_readme_shows_this_file", 1)[0]

    def normal(text):
        return [l for l in text.splitlines() if l.strip() and not l.startswith("#")]
    assert normal(block) == normal(code)
