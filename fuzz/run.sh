#!/usr/bin/env bash
# Builds the libFuzzer targets (JOINTDYN_FUZZ=ON, clang++ with ASan and UBSan) in their own
# build folder and runs one for SECONDS seconds (default 600):
#   fuzz/run.sh model_reader|mesh_reader [SECONDS] [libFuzzer options...]
# Seeds come from the repository (model files, meshes, Matrix Market files); inputs that
# add coverage are kept in $BUILD_DIR/corpus/TARGET across runs. A finding stops the run and
# is written as $BUILD_DIR/crash-* (or leak-*, timeout-*; rerun: $BUILD_DIR/fuzz/TARGET_fuzz FILE).
# Environment: BUILD_DIR (default build-fuzz), JOBS (default: number of cores).
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: fuzz/run.sh model_reader|mesh_reader [SECONDS] [libFuzzer options...]}
seconds=${2:-600}
shift $(($# < 2 ? $# : 2))
BUILD_DIR=${BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-$(nproc)}

case "$target" in
  model_reader) seeds=(tests/bad_models/*.yaml examples/*/*.yaml) ;;
  mesh_reader) seeds=(tests/bad_models/*.msh tests/models/*.msh tests/bad_models/*.inp
                     tests/bad_models/*.bdf examples/fe/*.mtx examples/fe/*.txt) ;;
  *) echo "fuzz/run.sh: unknown target $target" >&2; exit 2 ;;
esac

cmake -S . -B "$BUILD_DIR" -G Ninja -DJOINTDYN_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
  -DJOINTDYN_BUILD_TESTS=OFF -DJOINTDYN_BUILD_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS" --target "${target}_fuzz"

mkdir -p "$BUILD_DIR/corpus/$target" "$BUILD_DIR/seeds/$target"
cp "${seeds[@]}" "$BUILD_DIR/seeds/$target/"
# libgmsh's leak after a rejected .msh file is suppressed, as in the sanitizer run.
export LSAN_OPTIONS=suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
cd "$BUILD_DIR"
exec "fuzz/${target}_fuzz" -max_total_time="$seconds" -print_final_stats=1 "$@" \
  "corpus/$target" "seeds/$target"
