# Run by dist-check.sh inside the clean Debian 12 root (bash -euo pipefail, clean environment, $DEB set).
step() { printf '\n== %s\n' "$*"; }
check() { "$@" || { echo "dist-check: FAILED: $*" >&2; exit 1; }; }
# apt-get install, quiet unless it fails.
install_quietly() {
  apt-get install -y -qq --no-install-recommends "$@" >/tmp/apt.log 2>&1 || {
    cat /tmp/apt.log
    echo "dist-check: FAILED: apt-get install $*" >&2
    exit 1
  }
}

step "no Swift toolchain in this root"
check test ! -e /opt/swift
check test -z "$(command -v swift swiftc || true)"
grep -E '^(PRETTY_NAME)=' /etc/os-release

step "apt-get install ./$(basename "$DEB")"
apt-get update -qq
if ! apt-get install -y --no-install-recommends "$DEB" >/tmp/install.log 2>&1; then
  cat /tmp/install.log
  echo "dist-check: FAILED: apt-get install $DEB" >&2
  exit 1
fi
sed -n '/^The following NEW packages/,/^[0-9]* upgraded/p; /^Setting up pushcheck/p' /tmp/install.log
check dpkg -s pushcheck >/dev/null
dpkg -L pushcheck | while read -r f; do [ -f "$f" ] && echo "$f"; done

step "the binary: version, libraries"
pushcheck --version
echo "ldd: $(ldd /usr/bin/pushcheck | awk '{print $1}' | tr '\n' ' ')"
check test -z "$(ldd /usr/bin/pushcheck | grep -Ei 'swift|not found' || true)"

step "pushcheck run on a copy of Suites/ (the tools its run: steps call: curl, openssl)"
install_quietly curl openssl ca-certificates
cd /root/project
status=0
pushcheck run Suites --junit Reports/junit.xml --color never >/tmp/run.log 2>&1 || status=$?
tail -n 4 /tmp/run.log
if [ "$status" != 0 ]; then
  grep -E 'FAIL|ERROR|✗' /tmp/run.log | head -n 40
  echo "dist-check: FAILED: pushcheck run exited $status" >&2
  exit 1
fi
check grep -q '<testsuites' Reports/junit.xml

step "pushcheck serve answers curl"
pushcheck serve --ready-file /tmp/ready 2>/tmp/serve.err >/dev/null &
serve=$!
for _ in $(seq 100); do [ -s /tmp/ready ] && break; sleep 0.1; done
check test -s /tmp/ready
ready=$(cat /tmp/ready)
field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" <<<"$ready"; }
# the APNs sandbox, not the broadcast listener's (both objects have "sandbox")
apns_field() { sed -n "s/.*\"apns\":{[^}]*\"$1\":\"\([^\"]*\)\".*/\1/p" <<<"$ready"; }
control=$(field control) sandbox=$(apns_field sandbox) ca=$(field ca)
echo "ready: $ready"
health=$(curl -sS "$control/health")
echo "GET $control/health -> $health"
answer=$(curl -sS --http2 --cacert "$ca" -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' \
  -d '{"aps":{"alert":"hi"}}' -w ' HTTP/%{http_version} %{http_code}' \
  "$sandbox/3/device/$(printf '%064d' 0)")
echo "POST (no provider token) $sandbox/3/device/000… -> $answer"
check grep -q 'MissingProviderToken.* HTTP/2 403$' <<<"$answer"
kill -TERM "$serve"
serve_status=0
wait "$serve" || serve_status=$?
check test "$serve_status" = 0

step "man pushcheck"
install_quietly man-db
MANWIDTH=100 man pushcheck 2>/tmp/man.err | sed -n '1,6p'
check test ! -s /tmp/man.err
check grep -q -- '--update-snapshots' <(MANWIDTH=100 man pushcheck 2>/dev/null)

step "the suite format and the example suite in /usr/share/doc/pushcheck"
check test -s /usr/share/doc/pushcheck/suite-format.md.gz
check grep -q suite-format.md <(MANWIDTH=100 man pushcheck 2>/dev/null)
cp -r /usr/share/doc/pushcheck/examples /tmp/examples
(cd /tmp/examples && pushcheck run example-suite.yaml --junit junit.xml --color never) | tail -n 2
check test -s /tmp/examples/junit.xml

step "completions: bash, zsh, fish"
install_quietly zsh fish
complete_bash() {
  bash -c 'source /usr/share/bash-completion/completions/pushcheck; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
           _pushcheck; printf "%s\n" "${COMPREPLY[@]}"' bash "$@"
}
echo "bash: pushcheck run --ta<Tab> -> $(complete_bash pushcheck run --ta | tr '\n' ' ')"
check grep -qx -- --tags <(complete_bash pushcheck run --ta)
echo "bash: pushcheck run Suites --tags apns,sm<Tab> -> $(complete_bash pushcheck run Suites --tags apns,sm | tr '\n' ' ')"
check grep -qx apns,smoke <(complete_bash pushcheck run Suites --tags apns,sm)
fish_out=$(fish -c 'complete -C "pushcheck run --tags apns,sm"')
echo "fish: pushcheck run --tags apns,sm<Tab> -> $(tr '\n' ' ' <<<"$fish_out")"
check grep -q '^apns,smoke' <<<"$fish_out"
check grep -q '^--exclude-tags' <(fish -c 'complete -C "pushcheck run --ex"')
check zsh -n /usr/share/zsh/vendor-completions/_pushcheck
# zsh completes only in its line editor: type into an interactive zsh on a pseudo-terminal (zpty) and read back
# what Tab put on the line.
cat >/tmp/zsh-tab.zsh <<'ZSH'
zmodload zsh/zpty
zpty z 'PS1="> " TERM=dumb zsh -f -i'
zpty -w z 'autoload -Uz compinit && compinit -u -d /tmp/zcompdump'
zpty -w -n z $'pushcheck run Suites --tags apns,sm\t'
sleep 3
out=""
while zpty -r -t z chunk; do out+=$chunk; done
zpty -d z
print -r -- ${out//$'\r'/}
ZSH
zsh_line=$(cd /root/project && timeout 30 zsh -f /tmp/zsh-tab.zsh | grep -ao 'pushcheck run Suites --tags [a-z,-]*' | tail -n 1 || true)
echo "zsh: pushcheck run Suites --tags apns,sm<Tab> -> ${zsh_line#pushcheck run Suites --tags }"
check grep -q -- '--tags apns,smoke' <<<"$zsh_line"
