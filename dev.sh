#!/usr/bin/env bash
# lanemap set-up in one command (Debian 12):
#   ./dev.sh run    install what is missing, build, open the app
#   ./dev.sh test   install what is missing, build, run every test
#   ./dev.sh package  install what is missing, build a release and the Debian package dist/lanemap_<v>_amd64.deb
#   ./dev.sh web    install what is missing (Emscripten), build the web app into build-web/site (docs/web.md)
# Environment: BUILD_DIR (default build), WEB_BUILD_DIR (default build-web), JOBS (default: all cores), LANEMAP_CMAKE_ARGS (extra cmake args),
#   LANEMAP_CCACHE=0 (no compiler cache), LANEMAP_SKIP_CHECKS=1 (test: no sanitizer pass).
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:-run}
case "$mode" in run|test|build|package|web) ;; *) echo "usage: ./dev.sh run|test|build|package|web" >&2; exit 2 ;; esac

BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}

# Each phase's wall time and the CPU time its commands used (bash's `times`: children's user + system), so a
# slow run says where the time went even on a loaded machine (docs/performance.md#build-and-test-time).
# (`times` in a pipeline or $(...) would run in a subshell and see no children: it writes to a file.)
phase_times=$(mktemp)
trap 'rm -f "$phase_times"' EXIT
# The load average at the phase's start and end says how much else ran on the machine meanwhile.
phase_name="" phase_wall=0 phase_start_cpu=0 phase_start_load=""
load_now() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }
phase() {
  local now_cpu now_load
  times >"$phase_times"
  now_cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$phase_times")
  now_load=$(load_now)
  if [ -n "$phase_name" ]; then
    awk -v n="$phase_name" -v w=$((SECONDS - phase_wall)) -v a="$phase_start_cpu" -v b="$now_cpu" \
      -v l0="$phase_start_load" -v l1="$now_load" \
      'BEGIN { printf "== %s: %d s wall, %.0f CPU-s (load %s -> %s)\n", n, w, b - a, l0, l1 }'
  fi
  phase_name=$1 phase_wall=$SECONDS phase_start_cpu=$now_cpu phase_start_load=$now_load
}

packages=(build-essential cmake ninja-build git pkg-config
          qt6-base-dev qt6-svg-dev libgl-dev fonts-dejavu-core
          libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev libexpat1-dev
          clang libclang-rt-14-dev
          zlib1g-dev chromium dpkg-dev file)  # chromium: the site's browser tests; dpkg-dev, file: the .deb's Depends
# The web app's compiler (Debian's Emscripten, with its node), for the app itself and its browser tests.
if [ "$mode" = test ] || [ "$mode" = web ]; then
  packages+=(emscripten)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The web app (docs/web.md): the core compiled to WebAssembly and the page, one static folder. Release (-Os):
# the engine is what every visitor downloads. ccache caches em++ as it does g++.
WEB_BUILD_DIR=${WEB_BUILD_DIR:-build-web}
web_build() {
  if [ "${LANEMAP_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
    export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
    export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  fi
  echo "== building the web app in $WEB_BUILD_DIR"
  emcmake cmake -S . -B "$WEB_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$WEB_BUILD_DIR" -j "$JOBS"
}
if [ "$mode" = web ]; then
  phase "web app ($WEB_BUILD_DIR)"
  web_build
  phase ""
  echo "The web app is $WEB_BUILD_DIR/site/: serve it with any static server and open it, e.g."
  echo "  python3 -m http.server -d $WEB_BUILD_DIR/site 8000   # then http://localhost:8000/"
  exit 0
fi

if [ "$mode" = package ]; then
  # A release build of the programs only (no tests), packaged with CPack; Depends: computed by dpkg-shlibdeps.
  PKG_BUILD_DIR=${PKG_BUILD_DIR:-build-package}
  echo "== release build in $PKG_BUILD_DIR"
  # Debian's hardening flags (dpkg-buildflags: fortify, stack protector, relro, bindnow), as a Debian build has.
  export DEB_BUILD_MAINT_OPTIONS=hardening=+all
  # (CMake reads CXXFLAGS and LDFLAGS when a build folder is first configured.)
  # shellcheck disable=SC2086
  CXXFLAGS="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS)" \
  LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" \
  cmake -S . -B "$PKG_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLANEMAP_TESTS=OFF -DLANEMAP_BENCH=OFF \
    ${LANEMAP_CMAKE_ARGS:-}
  cmake --build "$PKG_BUILD_DIR" -j "$JOBS"
  mkdir -p dist
  cpack -G DEB --config "$PKG_BUILD_DIR/CPackConfig.cmake" -B "$PWD/dist"
  rm -rf dist/_CPack_Packages
  deb=$(ls -t dist/lanemap_*.deb | head -n1)
  echo "== built $deb"
  dpkg-deb -f "$deb" Package Version Architecture Depends
  # The checks of docs/packaging.md, where their tools are installed (lintian, desktop-file-utils, appstream).
  if command -v desktop-file-validate >/dev/null; then desktop-file-validate resources/lanemap.desktop; fi
  if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$PKG_BUILD_DIR"/packaging/*.metainfo.xml || true
  fi
  if command -v lintian >/dev/null; then lintian --tag-display-limit 0 "$deb" || true; fi
  echo "Install it with: sudo apt install ./$deb"
  exit 0
fi

# The test build trades what only a debugger reads for time (docs/performance.md#build-and-test-time): -g1
# (functions and line tables, enough for a backtrace; full -g costs a third more compile time), and ctest runs
# each test binary as a few shards instead of one process per test. LANEMAP_CMAKE_ARGS comes last, so
# -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -g -DNDEBUG' there brings full debug info back.
test_args=()
if [ "$mode" = test ]; then
  test_args=(-DLANEMAP_TEST_SHARDS=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
fi

# Compiler cache, where ccache is installed (LANEMAP_CCACHE=0 turns it off): a second clone, or the same tree
# after `git clean`, compiles only what changed. Safe here because ccache keys each object on the compiler, its
# flags and the preprocessed source (every header included); paths below the repository are hashed relative to
# it (CCACHE_BASEDIR) and the working folder is left out of the key (CCACHE_NOHASHDIR), so a clone in another
# folder hits too — the one thing that differs is the folder a debugger is told the sources were compiled in.
# The cache folder is ccache's own (CCACHE_DIR or its default). CMake reads the launchers from the environment
# when it first configures a build folder, so an existing folder keeps what it had.
if [ "${LANEMAP_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CUDA_COMPILER_LAUNCHER=${CMAKE_CUDA_COMPILER_LAUNCHER:-ccache}
fi

phase "configure and build ($BUILD_DIR)"
echo "== configuring and building in $BUILD_DIR"
# shellcheck disable=SC2086
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${test_args[@]}" ${LANEMAP_CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$JOBS"

case "$mode" in
  build) phase "" ;;
  test)
    # The web app, which its browser tests (lanemap-web-tests) load: built here, so they run, not skip.
    phase "web app ($WEB_BUILD_DIR)"
    web_build
    export LANEMAP_WEB_SITE="$PWD/$WEB_BUILD_DIR/site" LANEMAP_WEB_REQUIRED=1
    phase "tests ($BUILD_DIR)"
    echo "== running tests"
    export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
    ctest --test-dir "$BUILD_DIR" -j "$JOBS" --output-on-failure
    if [ "${LANEMAP_SKIP_CHECKS:-0}" != 1 ]; then
      # Second build with clang: core and CLI tests under AddressSanitizer + UndefinedBehaviorSanitizer, and
      # a short libFuzzer run of the spec parser and the probe-report reader. -O1 (what the sanitizers'
      # manuals suggest) compiles ~20% faster than -O2; line tables are all a sanitizer report needs.
      # LANEMAP_SANITIZER_PASS: only the tests of what reads input and writes exports are built and run
      # (tests/CMakeLists.txt; the GCC pass above ran all of them).
      phase "sanitizer build ($BUILD_DIR-check)"
      echo "== sanitizer and fuzz build (clang, ASan+UBSan) in $BUILD_DIR-check"
      CC=clang CXX=clang++ cmake -S . -B "$BUILD_DIR-check" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" -DLANEMAP_TEST_SHARDS=ON \
        -DLANEMAP_SANITIZE=ON -DLANEMAP_FUZZ=ON -DLANEMAP_GUI=OFF -DLANEMAP_CUDA=OFF -DLANEMAP_BENCH=OFF \
        -DLANEMAP_SANITIZER_PASS=ON
      cmake --build "$BUILD_DIR-check" -j "$JOBS"
      phase "sanitizer tests ($BUILD_DIR-check)"
      UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --test-dir "$BUILD_DIR-check" -j "$JOBS" --output-on-failure
    fi
    phase ""
    ;;
  run)
    rm -f "$phase_times" # exec skips the EXIT trap
    if [ -x "$BUILD_DIR/app/lanemap" ]; then
      exec "$BUILD_DIR/app/lanemap" "${@:2}"
    fi
    echo "The desktop app was not built (Qt6 not found); the CLI is at $BUILD_DIR/app/lanemap-cli:"
    exec "$BUILD_DIR/app/lanemap-cli" list
    ;;
esac
