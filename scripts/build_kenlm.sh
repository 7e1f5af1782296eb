#!/usr/bin/env bash
# Build KenLM's estimator (lmplz) and build_binary from the pinned PyPI source
# into ./.kenlm/bin.  Needed only to train models (repair train-lm), not to
# repair.  Uses Debian's boost and compression packages (installed with apt-get as root or with
# sudo when missing).  $PYTHON is the Python whose pip downloads the source (make passes the
# virtual environment's).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VERSION=0.3.0
DEST=.kenlm
if [ -x "$DEST/bin/lmplz" ] && [ -x "$DEST/bin/build_binary" ]; then
  echo "KenLM tools already in $DEST/bin"; exit 0
fi
PACKAGES="cmake g++ libboost-program-options-dev libboost-system-dev libboost-thread-dev libboost-test-dev
  zlib1g-dev libbz2-dev liblzma-dev"
MISSING=""
for p in $PACKAGES; do dpkg -s "$p" >/dev/null 2>&1 || MISSING="$MISSING $p"; done
if [ -n "$MISSING" ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"
  else echo "KenLM's tools need$MISSING (apt-get install them as root)" >&2; exit 1; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $MISSING >/dev/null
fi
mkdir -p "$DEST/src"
# Only KenLM itself as source: ":all:" would also build pip's build
# dependencies (CMake among them) from source, which takes longer than the tests.
"$PYTHON" -m pip download --quiet --no-deps --no-binary kenlm -d "$DEST/src" "kenlm==$VERSION"
tar -xzf "$DEST/src/kenlm-$VERSION.tar.gz" -C "$DEST/src"
cmake -S "$DEST/src/kenlm-$VERSION" -B "$DEST/build" -DCMAKE_BUILD_TYPE=Release -DKENLM_MAX_ORDER=6 >/dev/null
cmake --build "$DEST/build" --target lmplz build_binary -j "$(nproc)" >/dev/null
mkdir -p "$DEST/bin"
cp "$DEST/build/bin/lmplz" "$DEST/build/bin/build_binary" "$DEST/bin/"
echo "KenLM tools in $DEST/bin"
