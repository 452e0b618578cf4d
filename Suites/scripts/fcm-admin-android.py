"""A backend on the official Firebase Admin SDK sending to an Android app, run by Suites/fcm-admin-android.yaml.

Configured like fcm-admin-send.py (GOOGLE_APPLICATION_CREDENTIALS, PUSHCHECK_FCM_URL, REQUESTS_CA_BUNDLE); the
message is built with the SDK's own types (messaging.AndroidConfig / AndroidNotification), so the JSON on the wire
is what firebase-admin writes (lower-case priority, ttl as "<seconds>s", notification_count, …).

Usage: fcm-admin-android.py notification|data|both <token> [--priority high|normal] [--ttl SECONDS]
       [--collapse-key KEY] [--click-action ACTION] [--channel ID] [--tag TAG] [--order ID] [--repeat N]
Prints "sent <name>" (with --repeat: "sent N of M" after one messaging.send_each of N copies), or the exception
class and code (exit 2).
"""
import argparse
import os
import sys

import firebase_admin
from firebase_admin import exceptions, messaging

messaging._MessagingService.FCM_URL = os.environ["PUSHCHECK_FCM_URL"] + "/v1/projects/{0}/messages:send"

p = argparse.ArgumentParser()
p.add_argument("kind", choices=["notification", "data", "both"])
p.add_argument("token")
p.add_argument("--priority", choices=["high", "normal"])
p.add_argument("--ttl", type=int)
p.add_argument("--collapse-key")
p.add_argument("--click-action")
p.add_argument("--channel")
p.add_argument("--tag")
p.add_argument("--order", default="A2001")
p.add_argument("--repeat", type=int, default=1)
a = p.parse_args()

firebase_admin.initialize_app()
notification = None
if a.kind in ("notification", "both"):
    notification = messaging.AndroidNotification(
        title="Order " + a.order, body="Shipped by firebase-admin", click_action=a.click_action,
        channel_id=a.channel, tag=a.tag, color="#3F51B5", notification_count=1)
data = {"order_id": a.order, "sdk": "firebase-admin"} if a.kind in ("data", "both") else None
message = messaging.Message(
    token=a.token,
    data=data,
    android=messaging.AndroidConfig(
        priority=a.priority, ttl=a.ttl, collapse_key=a.collapse_key, notification=notification,
        restricted_package_name="com.example.shop"),
)
try:
    if a.repeat > 1:
        batch = messaging.send_each([message] * a.repeat)
        print(f"sent {batch.success_count} of {a.repeat}")
        sys.exit(0 if batch.failure_count == 0 else 2)
    print("sent " + messaging.send(message))
except exceptions.FirebaseError as e:
    print(f"{type(e).__name__} {e.code}: {e}")
    sys.exit(2)
