#!/usr/bin/env bash
# make bench, hardening part: what hostile load does to the gateway's memory, and whether reading the delivery
# log holds up pushes. Real sockets only (h2load, curl against `pushcheck serve`).
# Usage: Tests/bench/hardening-bench.sh PATH/TO/pushcheck
# Env: SOAK_N (default 1000000; requests in the mixed soak), BIG_N (default 1000; 1 MiB unauthenticated POSTs),
#      DEVICE_N (default 300000; pushes to a simulated iPhone in the device soak; 0 skips it),
#      ANDROID_N (default 120000; FCM messages to a simulated Pixel in the Android soak; 0 skips it),
#      LOG_READ (paged | whole; default paged: `?after=…&limit=1000` until has_more is false; whole: one
#      `?limit=10000`, what older builds answered with everything).
set -euo pipefail
BIN=${1:?usage: hardening-bench.sh PATH/TO/pushcheck}
SOAK_N=${SOAK_N:-1000000}
BIG_N=${BIG_N:-1000}
DEVICE_N=${DEVICE_N:-300000}
ANDROID_N=${ANDROID_N:-120000}
LOG_READ=${LOG_READ:-paged}
source "$(dirname "$0")/lib.sh"

apns_bench_config 'listen: { h2c: true }'
printf '{"aps":{"alert":{"title":"bench","body":"hello"},"badge":1}}' > "$WORK/valid.json"
python3 -c 'import sys; sys.stdout.write("{\"aps\":{\"alert\":\"" + "x" * 5000 + "\"}}")' > "$WORK/over4k.json"
head -c $(( 1 << 20 )) /dev/zero | tr '\0' 'x' > "$WORK/at1m.bin"   # exactly the body limit: accepted, logged
head -c $(( (1 << 20) + 1 )) /dev/zero | tr '\0' 'x' > "$WORK/over1m.bin"

start_serve
URL=$(ready '["apns"]["sandbox_h2c"]')
CONTROL=$(ready '["control"]')

AUTH=(-H "authorization: bearer $JWT" -H "apns-topic: $TOPIC" -H "apns-push-type: alert")
h2() { h2load "$@" 2>&1 | awk '/status codes:/{print "  " $0} /requests:/{print "  " $0}'; }

echo "== unauthenticated 1 MiB bodies (at the body limit, so logged): $BIG_N POSTs (h2load -c 4)"
RSS0=$(rss_kb)
h2 -n "$BIG_N" -c 4 -m 1 -H "apns-topic: $TOPIC" -d "$WORK/at1m.bin" "$URL/3/device/$TOKEN"
RSS1=$(rss_kb)
printf 'RSS before: %d KiB; after %d x 1 MiB POSTs: %d KiB (growth %+d KiB)\n' "$RSS0" "$BIG_N" "$RSS1" "$((RSS1 - RSS0))"

echo "== reading the whole log ($LOG_READ) while pushes run (h2load -c 1 -m 1, one push at a time)"
h2load -D 30 -c 1 -m 1 "${AUTH[@]}" -d "$WORK/valid.json" "$URL/3/device/$TOKEN" > "$WORK/load.txt" 2>&1 &
LOAD_PID=$!; BENCH_PIDS+=("$LOAD_PID")
sleep 0.5
START=$(date +%s.%N)
BYTES=0
if [ "$LOG_READ" = whole ]; then
  BYTES=$(curl -s -o /dev/null -w '%{size_download}' "$CONTROL/apns/log?limit=10000")
else
  # Everything logged when the read starts (pushes keep adding entries behind it): from the oldest kept entry up
  # to the newest sequence at the start, 1000 entries a page.
  LAST=$(curl -s "$CONTROL/apns/log?limit=1" | python3 -c 'import json,sys; print(int(json.load(sys.stdin)["next_after"]))')
  AFTER=0
  while [ "$AFTER" -lt "$LAST" ]; do
    curl -s -o "$WORK/page.json" "$CONTROL/apns/log?after=$AFTER&limit=1000"
    BYTES=$((BYTES + $(stat -c %s "$WORK/page.json")))
    read -r AFTER MORE < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(int(d["next_after"]), d["has_more"])' "$WORK/page.json")
    [ "$MORE" = True ] || break
  done
fi
END=$(date +%s.%N)
wait "$LOAD_PID" || true
printf 'log read: %d bytes in %.2f s; server peak RSS (VmHWM): %d KiB\n' "$BYTES" "$(python3 -c "print($END-$START)")" "$(hwm_kb)"
awk '/time for request:/{print "push latency during the read (min max mean sd):", $4, $5, $6, $7}' "$WORK/load.txt"
awk '/status codes:/{print "pushes during the read:", $0}' "$WORK/load.txt"

echo "== soak: $SOAK_N requests in 8 rounds, each round the four classes at once (h2load each):"
echo "   60 % valid, 30 % bad device token (400), 9.8 % payload over 4 KiB (413), 0.2 % body over 1 MiB (413)"
# The classes run side by side so the log's content (last 10,000 entries) is the same mix after every round:
# the first rounds fill it (at most log.max_bytes, 64 MiB), after which RSS must stay flat. Which class finishes
# last decides the window's exact mix, so the log's size moves a little from round to round, within that bound.
soak_round() { # requests in this round
  local n=$1 v=$(($1 * 60 / 100)) i=$(($1 * 30 / 100)) o=$(($1 * 98 / 1000)); local h=$((n - v - i - o))
  h2load -n "$v" -c 2 -m 32 "${AUTH[@]}" -d "$WORK/valid.json" "$URL/3/device/$TOKEN" > "$WORK/s-valid.txt" 2>&1 &
  local p1=$!
  h2load -n "$i" -c 1 -m 32 "${AUTH[@]}" -d "$WORK/valid.json" "$URL/3/device/nothex" > "$WORK/s-invalid.txt" 2>&1 &
  local p2=$!
  h2load -n "$o" -c 1 -m 32 "${AUTH[@]}" -d "$WORK/over4k.json" "$URL/3/device/$TOKEN" > "$WORK/s-over4k.txt" 2>&1 &
  local p3=$!
  h2load -n "$h" -c 1 -m 1 -H "apns-topic: $TOPIC" -d "$WORK/over1m.bin" "$URL/3/device/$TOKEN" > "$WORK/s-over1m.txt" 2>&1 &
  local p4=$!
  wait $p1 $p2 $p3 $p4
  for f in valid invalid over4k over1m; do
    awk -v c="$f" '/status codes:/{printf "   %-8s %s 2xx %s 4xx %s 5xx\n", c, $3, $7, $9}' "$WORK/s-$f.txt"
  done
}
ROUND=$((SOAK_N / 8))
SOAK0=$(rss_kb)
RSS_ROUNDS=()
for r in 1 2 3 4 5 6 7 8; do
  echo "round $r ($ROUND requests):"
  soak_round "$ROUND"
  RSS_ROUNDS+=("$(rss_kb)")
done
printf 'RSS (KiB) before the soak %d; after rounds 1-8: %s; rounds 4-8 growth %+d KiB; peak (VmHWM) %d KiB\n' \
  "$SOAK0" "${RSS_ROUNDS[*]}" "$((RSS_ROUNDS[7] - RSS_ROUNDS[3]))" "$(hwm_kb)"

# rss_rounds WHAT BEFORE R1 … R6 — a device soak's RSS line: once the device's logs are full (by round 3), RSS must
# stay flat, so the growth over rounds 3-6 is the figure to read.
rss_rounds() {
  local what=$1 before=$2
  shift 2
  printf 'RSS (KiB) before the %s %d; after rounds 1-6: %s; rounds 3-6 growth %+d KiB; peak (VmHWM) %d KiB\n' \
    "$what" "$before" "$*" "$(($6 - $3))" "$(hwm_kb)"
}

device_soak() {
  # A second serve hosting Suites/apps/news-app.yaml's iPhone: every accepted push is handed to the device, whose
  # event log and Notification Center keep their newest entries (DeviceRules: 10,000 events, 1,000 notifications).
  # Once they are full, RSS must stay flat however many pushes arrive.
  echo "== device soak: $DEVICE_N alerts to a simulated iPhone's token, in 6 rounds (h2load -c 4 -m 64)"
  stop_pid "$SERVE_PID"
  DEV_TEAM=ABCDE12345; DEV_TOPIC=com.example.pushdemo
  { cat <<YAML
apns:
  keys:
    - team_id: $DEV_TEAM
      key_id: $KID
      private_key: AuthKey_$KID.p8
  one_stream_until_valid_token: false
YAML
    sed -n '/^apps:/,$p' "$(dirname "$0")/../../Suites/apps/news-app.yaml"; } > "$WORK/serve.yaml"
  DEV_JWT=$("$BIN" jwt --team-id $DEV_TEAM --key-id "$KID" --key "$WORK/AuthKey_$KID.p8")
  start_serve
  DEV_TOKEN=$(ready '["devices"]["iphone"]["tokens"]["com.example.pushdemo"]')
  DEV_URL="$(ready '["apns"]["sandbox"]')/3/device/$DEV_TOKEN"
  DEV_ROUNDS=()
  DEV0=$(rss_kb)
  for r in 1 2 3 4 5 6; do
    out=$(h2load -n $((DEVICE_N / 6)) -c 4 -m 64 -H "authorization: bearer $DEV_JWT" -H "apns-topic: $DEV_TOPIC" \
      -H "apns-push-type: alert" -d "$WORK/valid.json" "$DEV_URL" 2>&1)
    echo "$out" | awk -v r="$r" '/status codes:/{printf "   round %d: %s 2xx %s 4xx %s 5xx\n", r, $3, $7, $9}'
    DEV_ROUNDS+=("$(rss_kb)")
  done
  rss_rounds "device soak" "$DEV0" "${DEV_ROUNDS[@]}"
  curl -s "$(ready '["control"]')/devices/iphone" | python3 -c 'import json,sys; d=json.load(sys.stdin)
print("device: %d events kept (%d dropped), %d notifications in Notification Center (%d dropped)" % (
    d["event_count"], d.get("events_dropped", 0), len(d["notification_center"]), d.get("notifications_dropped", 0)))'
}

# The Android twin: Suites/apps/android-shop.yaml's Pixel behind the FCM listener, notification messages (the SDK's
# tray notifications: 50 per package at most, as on a phone) and data messages (the app posts its own) in turn.
android_soak() {
  echo "== Android soak: $ANDROID_N FCM messages to a simulated Pixel's token, in 6 rounds (half notification, half data)"
  stop_pid "$SERVE_PID"
  local email=bench@shop-demo.iam.gserviceaccount.com
  fcm_service_account "$email"
  { cat <<YAML
fcm:
  service_accounts:
    - { client_email: $email, public_key: sa.pub.pem, projects: [shop-demo] }
  projects:
    - { id: shop-demo, number: "123456789012" }
devices:
  - { name: pixel, platform: android, api_level: 34, apps: [com.example.shop] }
YAML
    sed -n '/^apps:/,$p' "$(dirname "$0")/../../Suites/apps/android-shop.yaml"; } > "$WORK/serve.yaml"
  start_serve
  local fcm token access
  fcm=$(ready '["fcm"]')
  token=$(ready '["devices"]["pixel"]["fcm_tokens"]["com.example.shop"]')
  access=$(fcm_access_token "$fcm")
  printf '{"message":{"token":"%s","notification":{"title":"Order","body":"shipped"},"data":{"order_id":"A1"}}}' \
    "$token" > "$WORK/notification.json"
  printf '{"message":{"token":"%s","data":{"title":"Hi","body":"there"},"android":{"priority":"high"}}}' "$token" \
    > "$WORK/data.json"
  local rounds=() before r f
  before=$(rss_kb)
  for r in 1 2 3 4 5 6; do
    for f in notification data; do
      h2load -n $((ANDROID_N / 12)) -c 2 -m 32 -H "authorization: Bearer $access" -H "content-type: application/json" \
        -d "$WORK/$f.json" "$fcm/v1/projects/shop-demo/messages:send" 2>&1 |
        awk -v r="$r" -v f="$f" '/status codes:/{printf "   round %d %-12s %s 2xx %s 4xx %s 5xx\n", r, f, $3, $7, $9}'
    done
    rounds+=("$(rss_kb)")
  done
  rss_rounds "Android soak" "$before" "${rounds[@]}"
  curl -s "$(ready '["control"]')/devices/pixel" | python3 -c 'import json,sys; d=json.load(sys.stdin)
print("pixel: %d events kept (%d dropped), %d notifications in the tray" % (
    d["event_count"], d.get("events_dropped", 0), len(d["tray"])))'
}

[ "$DEVICE_N" -gt 0 ] && device_soak
[ "$ANDROID_N" -gt 0 ] && android_soak
exit 0
