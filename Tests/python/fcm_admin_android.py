"""Sends to Android instances of pushcheck's mock FCM with the official Firebase Admin SDK (firebase-admin from PyPI).

Environment:
  GOOGLE_APPLICATION_CREDENTIALS  a service-account file whose token_uri points at the mock's /token
  REQUESTS_CA_BUNDLE, SSL_CERT_FILE  the mock's CA
  PUSHCHECK_FCM_URL               the mock's base URL
  PUSHCHECK_FCM_TOKENS            JSON: {"android": <token of com.example.news>}

As in fcm_admin_sdk.py, only where messaging connects is changed (FCM_URL; the SDK has no endpoint option).
Prints one JSON line per check, then {"done": true, "names": {<send>: <message name>}}; exits 1 on the first
failed expectation. The test that runs it asserts the typed messages the gateway handed to its Android consumer.
"""
import datetime
import json
import os
import sys

import firebase_admin
from firebase_admin import exceptions, messaging

FCM = os.environ["PUSHCHECK_FCM_URL"]
TOKEN = json.loads(os.environ["PUSHCHECK_FCM_TOKENS"])["android"]
messaging._MessagingService.FCM_URL = FCM + "/v1/projects/{0}/messages:send"


def check(name, ok, detail=""):
    print(json.dumps({"check": name, "ok": bool(ok), "detail": str(detail)}), flush=True)
    if not ok:
        sys.exit(1)


firebase_admin.initialize_app()
names = {}

names["notification"] = messaging.send(messaging.Message(
    token=TOKEN, notification=messaging.Notification(title="Goal!", body="1-0")))

names["data"] = messaging.send(messaging.Message(
    token=TOKEN, data={"match": "7", "score": "1-0"},
    android=messaging.AndroidConfig(priority="high", ttl=3600, collapse_key="score-7")))

names["both"] = messaging.send(messaging.Message(
    token=TOKEN, notification=messaging.Notification(title="Goal!", body="2-0", image="https://example.com/g.png"),
    data={"match": "7"},
    android=messaging.AndroidConfig(
        priority="normal", ttl=datetime.timedelta(seconds=0), collapse_key="score-7",
        notification=messaging.AndroidNotification(
            title="Goal (Android)", channel_id="goals", tag="match-7", color="#3366ff",
            click_action="com.example.news.OPEN_ARTICLE", notification_count=3, sticky=True, icon="ic_stat_goal",
            visibility="public", priority="max", event_timestamp=datetime.datetime(2026, 1, 1, 12, 0, 0),
            light_settings=messaging.LightSettings(
                color="#ff000080", light_on_duration_millis=200, light_off_duration_millis=1000)),
        fcm_options=messaging.AndroidFCMOptions(analytics_label="goals"), direct_boot_ok=True)))

names["android_data"] = messaging.send(messaging.Message(
    token=TOKEN, data={"ignored": "yes"}, android=messaging.AndroidConfig(data={"only": "android"})))

for key, name in names.items():
    check(f"send {key}", name.startswith("projects/demo-project/messages/0:"), name)

dry = messaging.send(messaging.Message(token=TOKEN, android=messaging.AndroidConfig(priority="high")), dry_run=True)
check("dry run", dry.startswith("projects/demo-project/messages/"), dry)

try:
    messaging.send(messaging.Message(
        token=TOKEN, data={"k": "v"}, android=messaging.AndroidConfig(restricted_package_name="com.example.other")))
    check("restricted_package_name of another app", False)
except exceptions.InvalidArgumentError as e:
    check("restricted_package_name of another app", "restricted_package_name" in str(e), repr(e))

try:
    messaging.send(messaging.Message(
        token=TOKEN, android=messaging.AndroidConfig(notification=messaging.AndroidNotification(color="red"))))
    check("the SDK refuses a bad color before sending", False)
except ValueError as e:
    check("the SDK refuses a bad color before sending", "#RRGGBB" in str(e), repr(e))

print(json.dumps({"done": True, "names": names}), flush=True)
