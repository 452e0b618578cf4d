#!/bin/sh
# Signs an APNs provider token (ES256 JWT) the way a team's backend does, with the real clock and nothing
# but openssl: header {"alg":"ES256","kid":…}, claims {"iss":…,"iat":<now>}, signature raw r‖s.
# Usage: provider-token.sh [IAT]   (IAT: epoch seconds, default now; JSON as written, e.g. "\"1767225600\"")
# Reads PUSHCHECK_APNS_KEY_FILE, PUSHCHECK_APNS_KEY_ID, PUSHCHECK_APNS_TEAM_ID (set by pushcheck for run: steps).
set -eu
iat=${1:-$(date +%s)}
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
header=$(printf '{"alg":"ES256","kid":"%s"}' "$PUSHCHECK_APNS_KEY_ID" | b64url)
claims=$(printf '{"iss":"%s","iat":%s}' "$PUSHCHECK_APNS_TEAM_ID" "$iat" | b64url)
# openssl writes an ECDSA signature as DER SEQUENCE { INTEGER r, INTEGER s }; JWS wants r and s as
# 32 big-endian bytes each.
signature=$(printf '%s.%s' "$header" "$claims" \
  | openssl dgst -sha256 -sign "$PUSHCHECK_APNS_KEY_FILE" \
  | openssl asn1parse -inform DER \
  | awk -F: '/INTEGER/ { v = $NF; while (length(v) > 64 && substr(v, 1, 2) == "00") v = substr(v, 3);
                         while (length(v) < 64) v = "0" v; printf "%s", v }' \
  | perl -ne 'print pack("H*", $_)' | b64url)
printf '%s.%s.%s\n' "$header" "$claims" "$signature"
