"""A calling app's backend: sends one VoIP push (apns-push-type voip, topic <bundle>.voip) to a PushKit token with a
real, unchanged APNs client library.

Usage: python send_voip.py LIBRARY CALLER   (LIBRARY: kalyke | pyapns_client | aioapns)

Reads PUSHCHECK_VOIP_TOKEN (the app's PushKit token, from serve's ready line `push_tokens`), PUSHCHECK_APNS_TOPIC
(the bundle id), the provider key (PUSHCHECK_APNS_KEY_FILE, _KEY_ID, _TEAM_ID), PUSHCHECK_CA_FILE and
PUSHCHECK_APNS_PROXY_URL. Both libraries always connect to api.sandbox.push.apple.com; they reach the mock through the
CONNECT proxy (HTTPS_PROXY, honoured by httpx) and trust its CA (SSL_CERT_FILE / root_cert_path); aioapns dials
api.development.push.apple.com:443, which the test maps to serve in a private /etc/hosts. Prints `sent …`.
"""
import asyncio
import os
import sys

env = os.environ
library, caller = sys.argv[1], sys.argv[2]
token = env["PUSHCHECK_VOIP_TOKEN"]
bundle = env["PUSHCHECK_APNS_TOPIC"]
key_file, key_id, team_id = env["PUSHCHECK_APNS_KEY_FILE"], env["PUSHCHECK_APNS_KEY_ID"], env["PUSHCHECK_APNS_TEAM_ID"]
ca = env["PUSHCHECK_CA_FILE"]
os.environ["HTTPS_PROXY"] = env["PUSHCHECK_APNS_PROXY_URL"]
os.environ["SSL_CERT_FILE"] = ca
os.environ.pop("NO_PROXY", None)
os.environ.pop("no_proxy", None)

if library == "kalyke":
    # kalyke's VoIP client: VoIPApnsConfig sets apns-push-type: voip and insists on a `.voip` topic.
    from kalyke import VoIPApnsConfig, VoIPClient

    async def main():
        client = VoIPClient(use_sandbox=True, team_id=team_id, auth_key_id=key_id, auth_key_filepath=key_file)
        apns_id = await client.send_message(
            device_token=token, payload={"aps": {}, "caller": caller, "library": library},
            apns_config=VoIPApnsConfig(topic=f"{bundle}.voip"))
        print("sent", apns_id)

    asyncio.run(main())

elif library == "pyapns_client":
    from pyapns_client import APNSClient, IOSNotification, IOSPayload

    client = APNSClient(
        mode=APNSClient.MODE_DEV, root_cert_path=ca, auth_key_path=key_file, auth_key_id=key_id, team_id=team_id)
    notification = IOSNotification(
        payload=IOSPayload(custom={"caller": caller, "library": library}), topic=f"{bundle}.voip",
        push_type=IOSNotification.PUSH_TYPE_VOIP)  # (its int PRIORITY_HIGH trips httpx's header check: left out)
    client.push(notification=notification, device_token=token)  # raises on anything but 200
    client.close()
    print("sent 200")
elif library == "aioapns":
    # aioapns: NotificationRequest(push_type=PushType.VOIP) with the client's topic set to the `.voip` one.
    from aioapns import APNs, NotificationRequest, PushType

    async def main():
        client = APNs(key=open(key_file).read(), key_id=key_id, team_id=team_id, topic=f"{bundle}.voip",
                      use_sandbox=True)
        result = await client.send_notification(NotificationRequest(
            device_token=token, message={"aps": {}, "caller": caller, "library": library}, push_type=PushType.VOIP))
        print("sent", result.notification_id if result.is_successful else f"{result.status} {result.description}")
        return 0 if result.is_successful else 1

    sys.exit(asyncio.run(main()))
else:
    sys.exit(f"unknown library {library}")
