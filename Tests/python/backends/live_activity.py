"""A team's Live Activity backend with kalyke-apns, unchanged: one ActivityKit push through its LiveActivityClient.

Usage: python live_activity.py update TOKEN ETA      (an update to an activity's push token)
       python live_activity.py start TOKEN           (a push-to-start, to a push-to-start token)
       python live_activity.py aioapns TOKEN ETA     (the same update with aioapns 4.0, PushType.LIVEACTIVITY)
Reads PUSHCHECK_APNS_KEY_FILE, _KEY_ID, _TEAM_ID, PUSHCHECK_CA_FILE and PUSHCHECK_APNS_PROXY_URL: kalyke always dials
api.sandbox.push.apple.com, so it reaches the mock through the CONNECT proxy (HTTPS_PROXY) and trusts its CA
(SSL_CERT_FILE). Prints `sent <apns-id>`.
"""
import asyncio
import os
import sys
import time
from datetime import datetime

os.environ["HTTPS_PROXY"] = os.environ["PUSHCHECK_APNS_PROXY_URL"]
os.environ["SSL_CERT_FILE"] = os.environ["PUSHCHECK_CA_FILE"]
os.environ.pop("NO_PROXY", None)
os.environ.pop("no_proxy", None)

from kalyke import LiveActivityApnsConfig, LiveActivityClient, LiveActivityEvent, LiveActivityPayload  # noqa: E402
from kalyke.models import PayloadAlert  # noqa: E402

kind, token = sys.argv[1], sys.argv[2]
if kind == "aioapns":
    # aioapns dials api.development.push.apple.com:443: the test maps it to serve in a private /etc/hosts.
    from aioapns import APNs, NotificationRequest, PushType

    async def with_aioapns():
        client = APNs(
            key=open(os.environ["PUSHCHECK_APNS_KEY_FILE"]).read(), key_id=os.environ["PUSHCHECK_APNS_KEY_ID"],
            team_id=os.environ["PUSHCHECK_APNS_TEAM_ID"], topic="com.example.rides.push-type.liveactivity",
            use_sandbox=True)
        aps = {"timestamp": int(time.time()), "event": "update",
               "content-state": {"eta": int(sys.argv[3]), "driver": "Ann"}}
        result = await client.send_notification(
            NotificationRequest(device_token=token, message={"aps": aps}, push_type=PushType.LIVEACTIVITY))
        print("sent", result.notification_id if result.is_successful else f"{result.status} {result.description}")
        return 0 if result.is_successful else 1

    sys.exit(asyncio.run(with_aioapns()))
if kind == "update":
    payload = LiveActivityPayload(
        event=LiveActivityEvent.UPDATE, timestamp=datetime.now(),
        content_state={"eta": int(sys.argv[3]), "driver": "Ann"},
        alert=PayloadAlert(title="Ann is close", body=f"{sys.argv[3]} minutes"))
else:
    payload = LiveActivityPayload(
        event=LiveActivityEvent.START, timestamp=datetime.now(), attributes_type="RideAttributes",
        attributes={"ride_id": "R-1"}, content_state={"eta": 7, "driver": "Ann"},
        alert=PayloadAlert(title="Your ride", body="On its way"))


async def main():
    client = LiveActivityClient(
        use_sandbox=True, team_id=os.environ["PUSHCHECK_APNS_TEAM_ID"],
        auth_key_id=os.environ["PUSHCHECK_APNS_KEY_ID"], auth_key_filepath=os.environ["PUSHCHECK_APNS_KEY_FILE"])
    apns_id = await client.send_message(
        device_token=token, payload=payload,
        apns_config=LiveActivityApnsConfig(topic="com.example.rides.push-type.liveactivity"))
    print("sent", apns_id)


asyncio.run(main())
