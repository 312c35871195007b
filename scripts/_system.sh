# Sourced by scripts/test: installs the system programs that the web tests need, when
# they are missing. The end-to-end tests drive Debian's Chromium (never a browser of
# Playwright's own: `playwright install` is not used), the server tests need a real
# PostgreSQL server and a Redis server (started by the tests on a port of their own),
# and the page scripts' own tests run under Node (tests/server/test_web_scripts.py).
# Installing needs root and apt-get; otherwise it says what is missing
# and leaves it to the tests, which fail with a clear message on CI (CI=true).
ensure_system() {
  local missing=()
  if [ -z "${SHIFTAGO_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
    missing+=(chromium)
  fi
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    missing+=(postgresql)
  fi
  if ! command -v redis-server >/dev/null 2>&1; then
    missing+=(redis-server)
  fi
  if ! command -v node >/dev/null 2>&1; then
    missing+=(nodejs)
  fi
  if [ ! -d /usr/share/fonts/truetype/dejavu ]; then
    missing+=(fonts-dejavu-core)
  fi
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "scripts/test: missing ${missing[*]} (install them with apt-get as root)" >&2
    return 0
  fi
  echo "== installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
}
