# Shared plumbing for the bench scripts (sourced, not run): a work directory removed on exit with every
# process started here, `pushcheck serve` started and its ready line read, nghttpd as the reference
# server, the server's RSS, and uprobes removed on exit. Each script sets BIN before sourcing this file.
WORK=$(mktemp -d)
BENCH_PIDS=()
PROBES_ADDED=(); PROBE_EVENTS=()
bench_cleanup() {
  local pid e
  for pid in "${BENCH_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for e in "${PROBES_ADDED[@]}"; do perf probe -q -d "$e" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap bench_cleanup EXIT

# start_serve ARGS… — `pushcheck serve --config $WORK/serve.yaml --ca-out $WORK/ca.pem ARGS…` in the
# background; sets SERVE_PID once the ready line is in $WORK/ready.json (exits with serve's log if it never is).
start_serve() {
  "$BIN" serve --config "$WORK/serve.yaml" --ca-out "$WORK/ca.pem" "$@" > "$WORK/ready.json" 2> "$WORK/serve.log" &
  SERVE_PID=$!; BENCH_PIDS+=("$SERVE_PID")
  for _ in $(seq 1 100); do [ -s "$WORK/ready.json" ] && break; sleep 0.1; done
  [ -s "$WORK/ready.json" ] || { echo "pushcheck serve did not start:"; cat "$WORK/serve.log"; exit 1; }
}

# ready '["apns"]["sandbox"]' [FILE] — one value of serve's ready line (FILE: another server's, default start_serve's).
ready() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d"+sys.argv[2]))' "${2:-$WORK/ready.json}" "$1"
}

# start_nghttpd TOKEN [THREADS=1] — nghttpd (`-n THREADS` worker threads) serving a static 200 at
# /3/device/TOKEN over TLS with a P-256 certificate like serve's; sets NPORT and NGHTTPD_PID.
start_nghttpd() {
  [ -s "$WORK/server.pem" ] || openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj /CN=127.0.0.1 -keyout "$WORK/server.key" -out "$WORK/server.pem" 2>/dev/null
  mkdir -p "$WORK/docroot/3/device"; : > "$WORK/docroot/3/device/$1"
  NPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  nghttpd -n "${2:-1}" -a 127.0.0.1 -d "$WORK/docroot" "$NPORT" "$WORK/server.key" "$WORK/server.pem" \
    > "$WORK/nghttpd.log" 2>&1 &
  NGHTTPD_PID=$!; BENCH_PIDS+=("$NGHTTPD_PID")
  sleep 0.5
}

# add_probe LIB SYMBOL — a uprobe (`perf probe -x LIB SYMBOL`, needs root) unless the probe is there already; its
# event name is appended to PROBE_EVENTS, and a probe added here is removed on exit. Fails if perf cannot add it.
add_probe() {
  local group; group=probe_$(basename "$1" | sed 's/\.so.*//; s/[^A-Za-z0-9_]/_/g')
  if ! perf probe -l 2>/dev/null | grep -q "^ *$group:$2 "; then
    perf probe -q -x "$1" "$2" 2>/dev/null || return 1
    PROBES_ADDED+=("$group:$2")
  fi
  PROBE_EVENTS+=("$group:$2")
}

# allocator_of BIN — the library BIN's malloc and free come from: jemalloc when it links it (since stop 33), else
# glibc (older builds).
allocator_of() {
  local lib; lib=$(ldd "$1" | awk '$1 ~ /^libjemalloc\.so/ {print $3}')
  echo "${lib:-$(ldd "$1" | awk '$1 ~ /^libc\.so/ {print $3}')}"
}

# stop_pid PID — ends one process this script started (the next phase starts its own servers).
stop_pid() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# cpu_ms PID — user + system CPU time of a process (all its threads) so far, in milliseconds. Requests per CPU
# second is what the two servers are compared on besides req/s: on a 2-core machine shared with h2load (and with
# other work) req/s follows the scheduler, CPU per request does not.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$1/stat"; }

rss_kb() { awk '/^VmRSS/{print $2}' "/proc/$SERVE_PID/status"; }
hwm_kb() { awk '/^VmHWM/{print $2}' "/proc/$SERVE_PID/status"; }

# apns_bench_config [LISTEN_YAML] — a P-256 key, one registered sandbox token and serve.yaml for the APNs benches
# (TEAM, KID, TOPIC, TOKEN, JWT set), a valid push body in $WORK/payload.json and APNS_H, h2load's headers and body
# for it. h2load opens -m streams before it reads the server's first SETTINGS; with
# APNs' "one stream until a valid token" rule those extra streams are refused, so the rule is off here.
# Validation itself (JWT, headers, token) stays on.
apns_bench_config() {
  TEAM=TEAM123456; KID=KEY1234567; TOPIC=com.example.bench
  TOKEN=$(printf '%064x' 42)
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$WORK/AuthKey_$KID.p8" 2>/dev/null
  { [ -n "${1:-}" ] && printf '%s\n' "$1"
    cat <<YAML
apns:
  keys:
    - team_id: $TEAM
      key_id: $KID
      private_key: AuthKey_$KID.p8
  tokens:
    - token: "$TOKEN"
      topic: $TOPIC
      environment: sandbox
  log:
    capacity: 10000
  one_stream_until_valid_token: false
YAML
  } > "$WORK/serve.yaml"
  JWT=$("$BIN" jwt --team-id $TEAM --key-id $KID --key "$WORK/AuthKey_$KID.p8")
  printf '{"aps":{"alert":{"title":"bench","body":"hello"},"badge":1},"url":"https://example.com/a"}' > "$WORK/payload.json"
  APNS_H=(-H "authorization: bearer $JWT" -H "apns-topic: $TOPIC" -H "apns-push-type: alert" -H "apns-priority: 10" -d "$WORK/payload.json")
}

# fcm_service_account EMAIL — an RSA service account key ($WORK/sa.key, public half sa.pub.pem for serve.yaml) and
# its signed OAuth assertion (ASSERTION): the JWT-bearer grant as google-auth makes it, RS256 with aud = Google's
# token URL, for fcm_access_token.
fcm_service_account() {
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/sa.key" 2>/dev/null
  openssl rsa -in "$WORK/sa.key" -pubout -out "$WORK/sa.pub.pem" 2>/dev/null
  b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
  local now header claims
  now=$(date +%s)
  header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
  claims=$(printf '{"iss":"%s","aud":"https://oauth2.googleapis.com/token","scope":"https://www.googleapis.com/auth/firebase.messaging","iat":%d,"exp":%d}' \
    "$1" "$now" "$((now + 3600))" | b64url)
  ASSERTION="$header.$claims.$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign "$WORK/sa.key" -binary | b64url)"
}

# fcm_access_token FCM_URL — the running mock's access token for fcm_service_account's assertion (its /token).
fcm_access_token() {
  curl -sS --cacert "$WORK/ca.pem" --data "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=$ASSERTION" \
    "$1/token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])'
}

# fcm_bench_config — apns_bench_config's serve.yaml and push, plus an FCM project whose token (FCM_TOKEN) maps to
# the APNs token and signs with the same key, a service account (EMAIL, fcm_service_account) and a valid message in
# $WORK/message.json.
fcm_bench_config() {
  apns_bench_config
  FCM_TOKEN="benchInstance1:APA91bBENCHBENCHBENCHBENCHBENCHBENCH"
  EMAIL=bench@bench-project.iam.gserviceaccount.com
  fcm_service_account "$EMAIL"
  cat >> "$WORK/serve.yaml" <<YAML
fcm:
  service_accounts:
    - { client_email: $EMAIL, public_key: sa.pub.pem, projects: [bench-project] }
  projects:
    - id: bench-project
      number: "123456789012"
      apns: { team_id: $TEAM, key_id: $KID, environment: sandbox }
      tokens:
        - { token: "$FCM_TOKEN", apns_token: "$TOKEN", topic: $TOPIC }
  log: { capacity: 10000 }
YAML
  printf '{"message":{"token":"%s","notification":{"title":"bench","body":"hello"},"data":{"url":"https://example.com/a"},"apns":{"payload":{"aps":{"badge":1}}}}}' \
    "$FCM_TOKEN" > "$WORK/message.json"
}

# fcm_bench_headers FCM_URL — sets FCM_H, h2load's headers for a valid messages:send (fcm_bench_config's message,
# an access token from the running mock).
fcm_bench_headers() {
  FCM_H=(-H "authorization: Bearer $(fcm_access_token "$1")" -H "content-type: application/json" -d "$WORK/message.json")
}
