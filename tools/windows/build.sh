#!/usr/bin/env bash
# Cross-builds the Windows engine, gyoku.exe (x86_64-pc-windows-gnu, a
# PE32+ console program), on Debian or Ubuntu, and tests it under wine.
#
# usage: tools/windows/build.sh [--no-install] [--no-test] [--unit] [--out DIR]
#
#   --no-install  do not apt-get / rustup anything (fail if something is missing)
#   --no-test     build only
#   --unit        also cross-build the library's unit tests and run the
#                 Windows-specific ones (memory, large pages, Shift_JIS,
#                 USI input) under wine (about 3 more minutes of building)
#   --out DIR     copy gyoku.exe to DIR (what you ship: the exe alone)
#
# What it needs, installed when missing (apt-get through sudo unless root):
# the MinGW-w64 linker (gcc-mingw-w64-x86-64), wine (wine64), and Rust's
# prebuilt standard library for the target (`rustup target add
# x86_64-pc-windows-gnu`). Without rustup, or offline, a toolchain whose
# rust-src component is installed can build the standard library itself:
# GYOKU_BUILD_STD=1 (Debian 12's rustc-web 1.85 is too old for this crate,
# which needs Rust 1.87). .cargo/config.toml's x86-64-v2 flags, keyed on
# target_arch, apply to this target too.
#
# Tests (a scratch folder, never the build output): gyoku.exe is copied
# there with a random test network and a test-only bcryptprimitives.dll
# built from tools/windows/bcryptprimitives.c (wine 8 lacks the DLL that
# Rust's standard library imports ProcessPrng from; Windows 10/11 have it,
# so it is never shipped); then tools/windows/smoke.py (USI over pipes with
# CRLF, go depth, go mate, EvalFile beside the exe in UTF-8 and Shift_JIS
# names, quit, end of input) and, where ../shared/tools/usi exists and
# cshogi is installed, the USI conformance tester, both under wine.
#
# Environment: CARGO_TARGET_DIR (default target), WINEPREFIX (default
# ~/.cache/gyoku-wine, created on first use), GYOKU_CONFORMANCE (path of
# usi_conformance.py), GYOKU_BUILD_STD=1 (see above).
set -euo pipefail

TARGET=x86_64-pc-windows-gnu
install=1 test=1 unit=0 out=
while [ $# -gt 0 ]; do
    case $1 in
        --no-install) install=0 ;;
        --no-test) test=0 ;;
        --unit) unit=1 ;;
        --out) out=${2:?--out needs a folder}; shift ;;
        -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"
target_dir=${CARGO_TARGET_DIR:-$repo/target}
say() { printf '== %s\n' "$*"; }

# ---- what the build and the tests need --------------------------------
apt_install() {
    local missing=()
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ $install -eq 0 ]; then
        echo "missing packages: ${missing[*]} (run without --no-install)" >&2
        exit 1
    fi
    local sudo=
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    say "apt-get install ${missing[*]}"
    $sudo apt-get install -y "${missing[@]}" || {
        $sudo apt-get update && $sudo apt-get install -y "${missing[@]}"
    }
}

apt_install gcc-mingw-w64-x86-64
[ $test -eq 1 ] && apt_install wine64

build_std=${GYOKU_BUILD_STD:-0}
if [ "$build_std" != 1 ]; then
    libdir=$(rustc --print target-libdir --target $TARGET 2>/dev/null || true)
    if [ -z "$libdir" ] || [ ! -d "$libdir" ]; then
        if [ $install -eq 1 ] && command -v rustup >/dev/null; then
            say "rustup target add $TARGET"
            rustup target add $TARGET || true
            libdir=$(rustc --print target-libdir --target $TARGET 2>/dev/null || true)
        fi
    fi
    if [ -z "$libdir" ] || [ ! -d "$libdir" ]; then
        if [ -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library" ]; then
            say "no prebuilt standard library for $TARGET: building it from rust-src"
            build_std=1
        else
            echo "no standard library for $TARGET: run 'rustup target add $TARGET'," >&2
            echo "or install rust-src and set GYOKU_BUILD_STD=1" >&2
            exit 1
        fi
    fi
fi

export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
cargo_target=(--target $TARGET)
if [ "$build_std" = 1 ]; then
    export RUSTC_BOOTSTRAP=1
    cargo_target+=(-Zbuild-std=std,panic_unwind)
fi

# ---- build -------------------------------------------------------------
say "cargo build --release ${cargo_target[*]} ($(rustc --version))"
start=$(date +%s)
cargo build --release "${cargo_target[@]}" --bin gyoku
built=$(( $(date +%s) - start ))
exe=$target_dir/$TARGET/release/gyoku.exe
size=$(stat -c %s "$exe")
say "built $exe: $size bytes in ${built} s"
file "$exe" 2>/dev/null || true
if [ -n "$out" ]; then
    mkdir -p "$out"
    cp "$exe" "$out/gyoku.exe"
    say "copied to $out/gyoku.exe"
fi
[ $test -eq 1 ] || exit 0

# ---- tests under wine ---------------------------------------------------
export WINEPREFIX=${WINEPREFIX:-$HOME/.cache/gyoku-wine}
export WINEDEBUG=-all
# No Mono or Gecko installer prompts: the engine needs neither.
export WINEDLLOVERRIDES="mscoree,mshtml="
# A Japanese locale gives wine the ANSI code page 932 (Shift_JIS), so that
# the Shift_JIS file-name path is tested; C.UTF-8 still tests UTF-8 names.
sjis=
if ! locale -a 2>/dev/null | grep -qi '^ja_JP\.utf-\{0,1\}8$' && [ $install -eq 1 ] &&
    [ -f /usr/share/i18n/locales/ja_JP ] && [ "$(id -u)" -eq 0 ]; then
    localedef -i ja_JP -f UTF-8 ja_JP.UTF-8 2>/dev/null || true
fi
if locale -a 2>/dev/null | grep -qi '^ja_JP\.utf-\{0,1\}8$'; then
    export LANG=ja_JP.UTF-8 LC_ALL=ja_JP.UTF-8
    sjis=--sjis
else
    say "no ja_JP.UTF-8 locale: the Shift_JIS check is skipped"
    export LANG=C.UTF-8 LC_ALL=C.UTF-8
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/gyoku-windows.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp "$exe" "$scratch/"
x86_64-w64-mingw32-gcc -shared -O2 -Wall -o "$scratch/bcryptprimitives.dll" \
    "$here/bcryptprimitives.c" -ladvapi32

say "wine $(wine --version 2>/dev/null) in $WINEPREFIX"
mkdir -p "$WINEPREFIX"
wineboot -i >/dev/null 2>&1 || true
# A random network beside the exe, for the EvalFile checks.
(cd "$scratch" && wine ./gyoku.exe nnue random test.nnue 1)

status=0
say "smoke tests"
python3 "$here/smoke.py" $sjis "$scratch" || status=1

conformance=${GYOKU_CONFORMANCE:-$repo/../shared/tools/usi/usi_conformance.py}
if [ ! -f "$conformance" ]; then
    say "no $conformance: conformance tests skipped"
elif ! python3 -c 'import cshogi' 2>/dev/null; then
    say "the conformance tester needs cshogi (pip install cshogi): skipped"
else
    say "USI conformance under wine"
    # Wine adds start-up time before usiok.
    python3 "$conformance" --usiok-ms 10000 --engine "wine $scratch/gyoku.exe" || status=1
fi

if [ $unit -eq 1 ]; then
    say "unit tests under wine"
    tests=$(cargo test "${cargo_target[@]}" --lib --no-run --message-format=json 2>/dev/null |
        python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["lib"]:
        print(m["executable"])' | tail -n 1)
    cp "$tests" "$scratch/gyoku-tests.exe"
    (cd "$scratch" && wine ./gyoku-tests.exe large_table sys_windows usi:: nnue::load) || status=1
fi

wineserver -w 2>/dev/null || true
say "gyoku.exe: $size bytes, built in ${built} s; tests $([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
