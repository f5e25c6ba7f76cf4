#!/usr/bin/env bash
# The test suite (ctest -LE long) built with AddressSanitizer and UndefinedBehaviorSanitizer
# (JOINTDYN_SANITIZE=ON, -O1 with asserts) in its own build folder. Any report fails the
# test that triggers it. Too slow for CI: ctest -L long runs it as the test `sanitizers`.
# Environment: BUILD_DIR (default build-asan), JOBS (default: number of cores); arguments
# go to ctest (e.g. -R fe_test).
set -euo pipefail
cd "$(dirname "$0")/../.."

BUILD_DIR=${BUILD_DIR:-build-asan}
JOBS=${JOBS:-$(nproc)}

# Stop at the first report with its stack; exported before the build because test discovery
# runs the test programs.
export ASAN_OPTIONS=halt_on_error=1:handle_abort=1:detect_leaks=1:detect_stack_use_after_return=1:strict_init_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0

cmake -S . -B "$BUILD_DIR" -G Ninja -DJOINTDYN_SANITIZE=ON -DJOINTDYN_BUILD_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -LE long "$@"
