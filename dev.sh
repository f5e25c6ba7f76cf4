#!/usr/bin/env bash
# jointdyn developer entry point (Debian 12):
#   ./dev.sh example   install what is missing, build, run the main example
#   ./dev.sh test      install what is missing, build, run the test suite
#   ./dev.sh sanitize  the test suite under ASan and UBSan (tests/sanitizers/run.sh; slow)
#   ./dev.sh fuzz TARGET [SECONDS]  run a libFuzzer target (fuzz/run.sh; clang)
# Environment: BUILD_DIR (default build), JOBS (default: number of cores).
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}

# Debian packages the build needs (see README: why each one is there).
PACKAGES=(
  g++ cmake ninja-build ccache pkg-config clang-format
  libeigen3-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libfftw3-dev libgmsh-dev
  libsuitesparse-dev libopenblas0-pthread libspectra-dev libhdf5-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  pybind11-dev python3-dev python3-numpy python3-pytest python3-yaml python3-scipy
  python3-matplotlib python3-pip
)

# Only for `./dev.sh fuzz`: clang (14 in Debian 12) and its runtimes (libFuzzer, ASan, UBSan).
FUZZ_PACKAGES=(clang libclang-rt-14-dev)

# install_missing [EXTRA_PACKAGES...]
install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "dev.sh: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

case "${1:-}" in
  example)
    install_missing
    build
    "$BUILD_DIR/app/jointdyn" run examples/dynamics/friction_bar_step.yaml --out out/friction_bar_step
    ;;
  test)
    install_missing
    build
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -LE long
    ;;
  sanitize)
    install_missing
    exec tests/sanitizers/run.sh
    ;;
  fuzz)
    install_missing "${FUZZ_PACKAGES[@]}"
    shift
    exec fuzz/run.sh "$@"
    ;;
  *)
    echo "usage: ./dev.sh example | test | sanitize | fuzz TARGET [SECONDS]" >&2
    exit 2
    ;;
esac
