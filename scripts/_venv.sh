# Sourced by the other scripts: makes sure .venv exists with the package installed.
# Usage: ensure_venv EXTRAS   (EXTRAS such as "web", "all" or "test", or "" for the plain
# package: the library, the engine, the arena and the terminal programs)
ensure_venv() {
  local extras="$1" root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  local py="${PYTHON:-python3}"
  if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "shiftago needs Python 3.11 or newer as '$py'" >&2
    return 1
  fi
  if [ ! -x "$root/.venv/bin/python" ]; then
    if ! "$py" -m venv "$root/.venv" >/dev/null 2>&1; then
      # Debian splits venv/ensurepip into its own package.
      rm -rf "$root/.venv"
      apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
      "$py" -m venv "$root/.venv"
    fi
  fi
  local stamp="$root/.venv/.installed-${extras:-base}"
  if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
    local target="$root"
    [ -n "$extras" ] && target="$root[$extras]"
    case ",$extras," in
      *,web,* | *,all,*) ensure_icu ;;
    esac
    "$root/.venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$root/.venv/bin/python" -m pip install -q -e "$target"
    touch "$stamp"
  fi
}

# PyICU (the names' lookalike check, docs/security.md "Names") is built against the
# system's ICU: its headers, pkg-config and a C++ compiler, from Debian's packages.
ensure_icu() {
  if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists icu-i18n \
    && command -v c++ >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "shiftago needs ICU to build PyICU: apt-get install libicu-dev pkg-config g++" >&2
    return 0
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libicu-dev pkg-config g++ >/dev/null
}
