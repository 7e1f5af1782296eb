#!/usr/bin/env bash
# `make setup`: a virtual environment in .venv with the project and its test tools, KenLM's training
# tools in .kenlm/bin, and, where the machine allows it, what the optional tests need (Debian's chromium
# and CJK fonts for the browser tests, the Ray extra for the Ray tests).
#
# Works with the system python3 of a stock Debian or Ubuntu machine: nothing is installed into it
# (PEP 668), everything Python goes into .venv.  System packages are installed with apt-get when running
# as root or when sudo works without a password; otherwise the script says what is missing and goes on.
# With REPAIR_REQUIRE_KENLM / REPAIR_REQUIRE_BROWSER / REPAIR_REQUIRE_RAY set to 1 (as in CI), a part
# that cannot be installed is a failure instead.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}
VPY="$VENV/bin/python"

say() { echo "setup: $*"; }
die() { echo "setup: $*" >&2; exit 1; }
required() { [ "$(printenv "$1" || true)" = "1" ]; }

# How to run apt-get: directly as root, through sudo without a password, or not at all.
if [ "$(id -u)" -eq 0 ]; then AS_ROOT=""; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  AS_ROOT="sudo -n"; else AS_ROOT="none"; fi
HAVE_APT=0
if [ "$AS_ROOT" != "none" ] && command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then HAVE_APT=1; fi
APT_UPDATED=0
apt_install() {  # apt_install PKG...: install the packages not yet installed; 1 when that is impossible
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$HAVE_APT" -eq 1 ] || return 1
  say "apt-get install ${missing[*]}"
  if [ "$APT_UPDATED" -eq 0 ]; then $AS_ROOT apt-get update -qq || return 1; APT_UPDATED=1; fi
  $AS_ROOT env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (set PYTHON=/path/to/python3, 3.10 or newer)"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' || die "$PYTHON is older than 3.10"

# 1. Build prerequisites: the kenlm module is compiled from source on install.
NEED=()
"$PYTHON" -c 'import ensurepip, venv' 2>/dev/null || NEED+=(python3-venv)
"$PYTHON" -c 'import os, sysconfig; p = sysconfig.get_paths()["include"]; raise SystemExit(not os.path.exists(os.path.join(p, "Python.h")))' \
  || NEED+=(python3-dev)
command -v g++ >/dev/null 2>&1 || NEED+=(g++)
command -v make >/dev/null 2>&1 || NEED+=(make)
if [ ${#NEED[@]} -gt 0 ]; then
  apt_install "${NEED[@]}" || die "missing ${NEED[*]}: install them (sudo apt-get install ${NEED[*]}) and run make setup again"
fi

# 2. The environment and the project in it.
if [ ! -x "$VPY" ]; then
  say "creating $VENV with $PYTHON"
  "$PYTHON" -m venv "$VENV" || die "$PYTHON -m venv $VENV failed (on Debian: apt-get install python3-venv)"
fi
"$VPY" -m pip install -q --upgrade pip || die "could not upgrade pip in $VENV"
"$VPY" -m pip install -q -e '.[test]' || die "could not install the project into $VENV"
say "project installed in $VENV (use $VENV/bin/repair, or: source $VENV/bin/activate)"

# 3. KenLM's training tools (only the training tests and `repair train-lm` need them).
if PYTHON="$VPY" bash scripts/build_kenlm.sh; then :; else
  required REPAIR_REQUIRE_KENLM && die "could not build KenLM's tools (REPAIR_REQUIRE_KENLM=1)"
  say "KenLM's tools were not built: the training tests will skip (install cmake, g++ and Debian's" \
      "libboost-program-options-dev libboost-system-dev libboost-thread-dev libboost-test-dev" \
      "zlib1g-dev libbz2-dev liblzma-dev, then run make kenlm-tools)"
fi

# 4. The browser tests: Debian's chromium and CJK fonts.
if [ -x /usr/bin/chromium ] && dpkg -s fonts-noto-cjk >/dev/null 2>&1; then
  say "chromium and fonts-noto-cjk already installed"
elif apt_install chromium fonts-noto-cjk; then
  say "chromium and fonts-noto-cjk installed"
else
  required REPAIR_REQUIRE_BROWSER && die "could not install chromium and fonts-noto-cjk (REPAIR_REQUIRE_BROWSER=1)"
  say "cannot install chromium and fonts-noto-cjk here (needs root or sudo, and apt-get): the browser tests" \
      "will skip (sudo apt-get install chromium fonts-noto-cjk, then make test)"
fi

# 5. The Ray extra.
if "$VPY" -m pip install -q -e '.[test,ray]'; then
  say "Ray extra installed"
else
  required REPAIR_REQUIRE_RAY && die "could not install the Ray extra (REPAIR_REQUIRE_RAY=1)"
  say "could not install the Ray extra: the Ray tests will skip ($VPY -m pip install -e '.[test,ray]')"
fi
say "done; run: make test"
