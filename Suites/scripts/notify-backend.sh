#!/bin/sh
# A stand-in for a team's backend: sends one push with curl over HTTP/2 to whatever APNs host the
# environment names. Under `pushcheck run` the PUSHCHECK_* variables point at the mock gateway.
# Usage: notify-backend.sh TITLE [token|certificate|signed]
#   token: the provider token pushcheck signed; signed: one this script signs itself with the real clock
#   (provider-token.sh, openssl only), as a real backend does.
set -eu
title=${1:-Hello}
auth=${2:-token}
url="${PUSHCHECK_APNS_SANDBOX_URL:-https://api.sandbox.push.apple.com}/3/device/${PUSHCHECK_DEVICE_TOKEN_IPHONE}"
payload=$(printf '{"aps":{"alert":{"title":"%s"}},"source":"backend"}' "$title")
if [ "$auth" = certificate ]; then
  set -- --cert "$PUSHCHECK_APNS_CERT_FILE" --key "$PUSHCHECK_APNS_CERT_KEY_FILE"
elif [ "$auth" = signed ]; then
  set -- -H "authorization: bearer $("$(dirname "$0")/provider-token.sh")"
else
  set -- -H "authorization: bearer $PUSHCHECK_APNS_PROVIDER_TOKEN"
fi
curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" "$@" \
  -H "apns-topic: $PUSHCHECK_APNS_TOPIC" -H "apns-push-type: alert" \
  -d "$payload" -o /dev/null -w 'status=%{http_code} http=%{http_version}\n' "$url"
