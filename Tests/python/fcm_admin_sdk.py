"""Drives pushcheck's mock FCM with the official Firebase Admin SDK (firebase-admin from PyPI).

Environment (from `pushcheck serve`'s ready line):
  GOOGLE_APPLICATION_CREDENTIALS  the "fcm_credentials" file (token_uri points at the mock's /token)
  REQUESTS_CA_BUNDLE, SSL_CERT_FILE  the ready line's "ca" (the mock's local CA)
  PUSHCHECK_FCM_URL               the ready line's "fcm"
  PUSHCHECK_FCM_TOKENS            JSON: {"a":…, "b":…, "gone":…, "other":…, "noapns":…}

What is changed in the SDK, and only that: where messaging connects. firebase-admin has no option or environment
variable for the FCM endpoint (messaging.py hard-codes https://fcm.googleapis.com and https://iid.googleapis.com),
so the two class attributes FCM_URL and IID_URL and the service's _fcm_topic_url are pointed at the mock.
OAuth needs no change: google-auth posts to the credentials file's token_uri.
Prints one JSON line per check and exits 1 on the first failed expectation.
"""
import json
import os
import sys

import firebase_admin
from firebase_admin import exceptions, messaging

FCM = os.environ["PUSHCHECK_FCM_URL"]
TOKENS = json.loads(os.environ["PUSHCHECK_FCM_TOKENS"])

messaging._MessagingService.FCM_URL = FCM + "/v1/projects/{0}/messages:send"
messaging._MessagingService.IID_URL = FCM


def service(app):
    svc = messaging._get_messaging_service(app)
    svc._fcm_topic_url = f"{FCM}/v1/projects/{app.project_id}/registrations"
    return svc


def check(name, ok, detail=""):
    print(json.dumps({"check": name, "ok": bool(ok), "detail": str(detail)}), flush=True)
    if not ok:
        sys.exit(1)


app = firebase_admin.initialize_app()  # GOOGLE_APPLICATION_CREDENTIALS
service(app)
check("project id from the credentials file", app.project_id == "demo-project", app.project_id)

name = messaging.send(messaging.Message(
    token=TOKENS["a"], notification=messaging.Notification(title="Hello", body="from firebase-admin"),
    data={"order": "42"}))
check("send", name.startswith("projects/demo-project/messages/"), name)

dry = messaging.send(messaging.Message(token=TOKENS["a"], data={"k": "v"}), dry_run=True)
check("dry run", dry.startswith("projects/demo-project/messages/"), dry)

try:
    messaging.send(messaging.Message(token=TOKENS["gone"]), dry_run=True)
    check("dry run checks the token", False)
except messaging.UnregisteredError as e:
    check("dry run checks the token", True, repr(e))

batch = messaging.send_each([
    messaging.Message(token=TOKENS["a"], apns=messaging.APNSConfig(
        headers={"apns-priority": "10"}, payload=messaging.APNSPayload(aps=messaging.Aps(badge=3, sound="default")))),
    messaging.Message(token=TOKENS["gone"]),
    messaging.Message(token=TOKENS["other"]),
    messaging.Message(token="not-a-token"),
    messaging.Message(token=TOKENS["a"], apns=messaging.APNSConfig(headers={"apns-priority": "7"})),
])
kinds = [type(r.exception).__name__ if r.exception else "ok" for r in batch.responses]
check("send_each", kinds == ["ok", "UnregisteredError", "SenderIdMismatchError", "InvalidArgumentError",
                             "InvalidArgumentError"], kinds)
check("send_each counts", (batch.success_count, batch.failure_count) == (1, 4))

second = messaging.send(messaging.Message(token=TOKENS["b"], data={"k": "v"}))
check("send to a second device", second.startswith("projects/demo-project/messages/"), second)

noapns = firebase_admin.initialize_app(options={"projectId": "noapns-project"}, name="noapns")
service(noapns)
try:
    messaging.send(messaging.Message(token=TOKENS["noapns"], notification=messaging.Notification(title="x")), app=noapns)
    check("ThirdPartyAuthError", False)
except messaging.ThirdPartyAuthError as e:
    check("ThirdPartyAuthError", True, repr(e))

sub = messaging.subscribe_to_topic([TOKENS["a"], TOKENS["b"]], "news")
check("subscribe_to_topic", (sub.success_count, sub.failure_count) == (2, 0), sub.errors)
again = messaging.subscribe_to_topic([TOKENS["a"]], "news")
check("subscribe again (409 counts as success)", again.success_count == 1)
bad = messaging.subscribe_to_topic([TOKENS["gone"]], "news")
check("subscribe an unregistered token", bad.failure_count == 1 and bad.errors[0].reason, [e.reason for e in bad.errors])
legacy = messaging.subscribe_to_topic_legacy([TOKENS["a"], "not-a-token"], "/topics/legacy") if hasattr(
    messaging, "subscribe_to_topic_legacy") else None
if legacy is not None:
    check("IID batchAdd (legacy)", (legacy.success_count, legacy.failure_count) == (1, 1), [e.reason for e in legacy.errors])

topic = messaging.send(messaging.Message(topic="news", notification=messaging.Notification(title="Breaking")))
check("topic send", topic.startswith("projects/demo-project/messages/"), topic)
cond = messaging.send(messaging.Message(condition="'news' in topics && !('legacy' in topics)", data={"c": "1"}))
check("condition send", cond.startswith("projects/demo-project/messages/"), cond)

unsub = messaging.unsubscribe_from_topic([TOKENS["a"], TOKENS["b"]], "news")
check("unsubscribe_from_topic", unsub.success_count == 2, unsub.errors)

try:
    messaging.send(messaging.Message(topic="news", data={"k": "x" * 3000}))
    check("topic size limit", False)
except exceptions.InvalidArgumentError as e:
    check("topic size limit", True, repr(e))
# A decoding error (BadRequest alone, no FcmError) and a bad token (FcmError alone): the SDK maps both by their
# 400 to InvalidArgumentError. The SDK never writes a non-string data value itself, so the encoder is wrapped for one
# send; the request still goes through the SDK's HTTP client and error handling.
encode = messaging._MessagingService.encode_message
messaging._MessagingService.encode_message = classmethod(
    lambda cls, m: dict(encode(m), data={"count": 12}))
try:
    messaging.send(messaging.Message(token=TOKENS["a"], data={"count": "12"}), dry_run=True)
    check("decoding error", False)
except exceptions.InvalidArgumentError as e:
    details = e.http_response.json()["error"]["details"]
    check("decoding error", type(e) is exceptions.InvalidArgumentError
          and [d["@type"] for d in details] == ["type.googleapis.com/google.rpc.BadRequest"], repr(e))
finally:
    messaging._MessagingService.encode_message = encode
try:
    messaging.send(messaging.Message(token="not-a-token"), dry_run=True)
    check("bad token", False)
except exceptions.InvalidArgumentError as e:
    details = e.http_response.json()["error"]["details"]
    check("bad token", type(e) is exceptions.InvalidArgumentError
          and [d["@type"] for d in details] == ["type.googleapis.com/google.firebase.fcm.v1.FcmError"], repr(e))
print(json.dumps({"done": True}), flush=True)
