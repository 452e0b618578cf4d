"""The seed-000 backend: sends the article's message (a title, a body and the custom key test=aaa, as the Firebase
console sends it) to one registration token with the official Firebase Admin SDK, whatever platform holds it.
Run by Suites/seed-000-android.yaml once for the iPhone's token and once for the Pixel's.

Configured like fcm-admin-send.py (GOOGLE_APPLICATION_CREDENTIALS, PUSHCHECK_FCM_URL, REQUESTS_CA_BUNDLE).
Usage: seed-000-send.py <token>. Prints "sent <name>".
"""
import os
import sys

import firebase_admin
from firebase_admin import messaging

messaging._MessagingService.FCM_URL = os.environ["PUSHCHECK_FCM_URL"] + "/v1/projects/{0}/messages:send"

firebase_admin.initialize_app()
message = messaging.Message(
    token=sys.argv[1],
    notification=messaging.Notification(title="{titleのテキスト}", body="{bodyのテキスト}"),
    data={"test": "aaa"},
)
print("sent " + messaging.send(message))
