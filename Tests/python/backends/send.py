"""A team's backend, four ways: sends one alert push with a real, unchanged APNs client library.

Usage: python send.py LIBRARY TITLE   (LIBRARY: aioapns | pyapns_client | kalyke | httpx)

Reads what `pushcheck run` gives a run: step (and what the pytest fixture sets for `serve`):
  PUSHCHECK_DEVICE_TOKEN_IPHONE, PUSHCHECK_APNS_TOPIC, PUSHCHECK_APNS_KEY_FILE, _KEY_ID, _TEAM_ID,
  PUSHCHECK_CA_FILE, PUSHCHECK_APNS_PROXY_URL (HTTP CONNECT proxy to the mock) and PUSHCHECK_APNS_SANDBOX_URL.
The libraries that always connect to api.*.push.apple.com reach the mock through the CONNECT proxy
(HTTPS_PROXY, honoured by the httpx-based pyapns_client and kalyke) or /etc/hosts (aioapns), and trust the
mock's CA (SSL_CERT_FILE or the library's own CA option); nothing else about them changes. Prints `sent <apns-id or status>`.
"""
import asyncio
import os
import ssl
import sys
import time
from urllib.parse import urlparse

env = os.environ
library, title = sys.argv[1], sys.argv[2]
token = env["PUSHCHECK_DEVICE_TOKEN_IPHONE"]
topic = env["PUSHCHECK_APNS_TOPIC"]
key_file, key_id, team_id = env["PUSHCHECK_APNS_KEY_FILE"], env["PUSHCHECK_APNS_KEY_ID"], env["PUSHCHECK_APNS_TEAM_ID"]
ca = env["PUSHCHECK_CA_FILE"]
proxy = env.get("PUSHCHECK_APNS_PROXY_URL", "")
payload = {"aps": {"alert": {"title": title}}, "order_id": "42", "library": library}


def via_proxy():
    """HTTPS_PROXY + SSL_CERT_FILE: how httpx-based libraries are pointed somewhere else without code changes."""
    os.environ["HTTPS_PROXY"] = proxy
    os.environ["SSL_CERT_FILE"] = ca
    os.environ.pop("NO_PROXY", None)
    os.environ.pop("no_proxy", None)


if library == "aioapns":
    # aioapns always dials api.development.push.apple.com:443 (use_sandbox). Its proxy_host option fails on
    # Python 3.11 (it reuses the proxy transport's TransportSocket, which has no send()), so it is pointed
    # at the mock the other documented way: /etc/hosts (the test does this in a private mount namespace)
    # plus SSL_CERT_FILE, which ssl.create_default_context() honours.
    os.environ["SSL_CERT_FILE"] = ca
    from aioapns import APNs, NotificationRequest

    async def main():
        client = APNs(key=open(key_file).read(), key_id=key_id, team_id=team_id, topic=topic, use_sandbox=True)
        result = await client.send_notification(NotificationRequest(device_token=token, message=payload))
        print("sent", result.notification_id if result.is_successful else f"{result.status} {result.description}")
        return 0 if result.is_successful else 1

    sys.exit(asyncio.run(main()))

elif library == "pyapns_client":
    via_proxy()
    from pyapns_client import APNSClient, IOSNotification, IOSPayload, IOSPayloadAlert

    client = APNSClient(
        mode=APNSClient.MODE_DEV, root_cert_path=ca, auth_key_path=key_file, auth_key_id=key_id, team_id=team_id)
    alert = IOSPayloadAlert(title=title)
    notification = IOSNotification(
        payload=IOSPayload(alert=alert, custom={"order_id": "42", "library": library}), topic=topic)
    client.push(notification=notification, device_token=token)  # raises on anything but 200
    client.close()
    print("sent 200")

elif library == "kalyke":
    via_proxy()
    from kalyke import ApnsClient, ApnsConfig

    async def main():
        client = ApnsClient(use_sandbox=True, team_id=team_id, auth_key_id=key_id, auth_key_filepath=key_file)
        apns_id = await client.send_message(device_token=token, payload=payload, apns_config=ApnsConfig(topic=topic))
        print("sent", apns_id)

    asyncio.run(main())

elif library == "httpx":
    # A hand-written backend: httpx over HTTP/2 with a PyJWT token, to the URL pushcheck gives.
    import httpx
    import jwt

    bearer = jwt.encode({"iss": team_id, "iat": int(time.time())}, open(key_file).read(), algorithm="ES256",
                        headers={"kid": key_id})
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=ca), trust_env=False) as c:
        r = c.post(f"{env['PUSHCHECK_APNS_SANDBOX_URL']}/3/device/{token}", json=payload,
                   headers={"authorization": f"bearer {bearer}", "apns-topic": topic, "apns-push-type": "alert"})
    print("sent", r.status_code, r.http_version, r.headers.get("apns-id"))
    sys.exit(0 if r.status_code == 200 else 1)
else:
    sys.exit(f"unknown library {library}")
