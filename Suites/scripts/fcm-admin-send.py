"""A backend on the official Firebase Admin SDK (firebase-admin from PyPI), run by Suites/fcm-admin-sdk.yaml.

It is configured only by what a `run:` step gets from pushcheck:
  GOOGLE_APPLICATION_CREDENTIALS  a service-account JSON whose token_uri is the world's mock (/token)
  PUSHCHECK_FCM_URL               the world's FCM listener (root URL, as https://fcm.googleapis.com)
  PUSHCHECK_FCM_TOKEN_<DEVICE>    the device's FCM registration token (argument 1 names the variable)
  REQUESTS_CA_BUNDLE              pushcheck's CA (set by the suite step from ${gateway.ca})

firebase-admin has no setting for the FCM endpoint (messaging.py hard-codes https://fcm.googleapis.com), so the
one change is pointing its FCM_URL class attribute at PUSHCHECK_FCM_URL; OAuth follows token_uri unchanged.
Usage: fcm-admin-send.py send|dry-run|gone <token>. Prints the message name, or the exception class and code.
"""
import os
import sys

import firebase_admin
from firebase_admin import messaging

messaging._MessagingService.FCM_URL = os.environ["PUSHCHECK_FCM_URL"] + "/v1/projects/{0}/messages:send"

mode, token = sys.argv[1], sys.argv[2]
app = firebase_admin.initialize_app()
message = messaging.Message(
    token=token,
    notification=messaging.Notification(title="From firebase-admin", body="Order A1001 shipped"),
    data={"order_id": "A1001", "sdk": "firebase-admin"},
    apns=messaging.APNSConfig(payload=messaging.APNSPayload(aps=messaging.Aps(badge=1, sound="default"))),
)
try:
    name = messaging.send(message, dry_run=(mode == "dry-run"))
    print(f"sent {name} project={app.project_id}")
except messaging.UnregisteredError as e:
    print(f"UnregisteredError {e.code}")
    sys.exit(2)
