# Run by dist-check.sh inside the clean Debian 12 root (bash -euo pipefail, clean environment, $DEB set).
step() { printf '\n== %s\n' "$*"; }
check() { "$@" || { echo "dist-check: FAILED: $*" >&2; exit 1; }; }

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
grep -E '^(The following NEW|  [a-z]|Setting up pushcheck|[0-9]+ upgraded)' /tmp/install.log
check dpkg -s pushcheck >/dev/null
dpkg -L pushcheck | grep -E '^/usr/(bin|share/(man|bash-completion|zsh|fish))/.+[^/]$'

step "the binary: version, libraries"
pushcheck --version
echo "ldd: $(ldd /usr/bin/pushcheck | awk '{print $1}' | tr '\n' ' ')"
check test -z "$(ldd /usr/bin/pushcheck | grep -Ei 'swift|not found' || true)"

step "pushcheck run on a copy of Suites/ (the tools its run: steps call: curl, openssl)"
apt-get install -y -qq --no-install-recommends curl openssl ca-certificates >/dev/null
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
control=$(field control) sandbox=$(field sandbox) ca=$(field ca)
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
apt-get install -y -qq --no-install-recommends man-db >/dev/null
MANWIDTH=100 man pushcheck 2>/tmp/man.err | sed -n '1,6p'
check test ! -s /tmp/man.err
check grep -q -- '--update-snapshots' <(MANWIDTH=100 man pushcheck 2>/dev/null)

step "completions: bash, zsh, fish"
apt-get install -y -qq --no-install-recommends zsh fish >/dev/null
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
zsh_comp=$(zsh -fc 'autoload -Uz compinit; compinit -u -d /tmp/zcompdump; print -r -- ${_comps[pushcheck]}')
echo "zsh: compinit registers pushcheck -> $zsh_comp"
check test "$zsh_comp" = _pushcheck
