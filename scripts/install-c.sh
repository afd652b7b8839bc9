#!/usr/bin/env bash
# Builds the C interface's shared library (the InkHitC product's objects) and installs it for C, C++ and Python users:
#
#   PREFIX/include/inkhit.h                      the contract (Sources/CInkHit/include/inkhit.h)
#   PREFIX/include/inkhit_qt.hpp                 the Qt adapter, header only (adapters/qt)
#   PREFIX/lib/libInkHit.so.MAJOR.MINOR.PATCH    the library, stripped, soname libInkHit.so.MAJOR
#   PREFIX/lib/libInkHit.so.MAJOR -> …           what programs load
#   PREFIX/lib/libInkHit.so -> …                 what `cc … -lInkHit` links
#   PREFIX/lib/.debug/libInkHit.so.MAJOR.MINOR.PATCH.debug   its debug information (see "Stripped" below)
#   PREFIX/lib/pkgconfig/inkhit.pc               `pkg-config --cflags --libs inkhit`
#
# and, where pkg-config finds Pango, cairo, fontconfig and HarfBuzz (./inkhit deps installs them), the Pango
# adapter (adapters/pango):
#
#   PREFIX/include/inkhit_pango.h                inkhit_pango_add_layout()
#   PREFIX/lib/libInkHitPango.so.MAJOR.MINOR.PATCH  (soname libInkHitPango.so.MAJOR, stripped, .debug beside as above)
#   PREFIX/lib/pkgconfig/inkhit-pango.pc         `pkg-config --cflags --libs inkhit-pango`
#
# (macOS: libInkHit.MAJOR.MINOR.PATCH.dylib, install name @rpath/libInkHit.MAJOR.dylib, linked by SwiftPM against
# the Swift runtime macOS itself ships in /usr/lib/swift; not stripped.)
#
# Usage: scripts/install-c.sh [--debug] [PREFIX]      (./inkhit install-c runs it; PREFIX default /usr/local)
#   --debug: from the debug build instead of the release one (scripts/c-abi-test.sh's default: `./inkhit test`
#   has just made it).
#
# Self-contained (Linux). The library needs nothing of the Swift toolchain at run time: the Swift runtime
# (libswiftCore, _Concurrency, Glibc, Dispatch with libdispatch and BlocksRuntime; Foundation is not used) is
# linked in from the toolchain's static archives (swiftc -static-stdlib: lib/swift_static/linux), and its
# symbols are local to the library. What it loads is only the system's libc, libm, libstdc++, libgcc_s,
# FreeType, HarfBuzz and FriBidi (readelf -d: NEEDED), and it has no RUNPATH, so the folder it lies in can be
# moved anywhere (a program finds it through its own RUNPATH, e.g. $ORIGIN, or the loader's path). Only what the
# code uses is linked in: the modules inside may import the standard library, Glibc and Dispatch; an import of
# Foundation would bring Foundation and ICU in (tens of MB: scripts/c-abi-test.sh's size bound fails).
#
# SwiftPM builds the objects (`swift build -c CONFIG --product InkHitC`, exactly as any other build of the
# package: nothing is compiled twice, and its development library .build/CONFIG/libInkHitC.so, linked against
# the toolchain's shared runtime, is left as it is); this script then links those objects again, the list
# SwiftPM wrote (InkHitC.product/Objects.LinkFileList), with swiftc as the driver:
#
#   swiftc -emit-library -static-stdlib -use-ld=lld @OBJECTS host_signals.c.o
#     -Xlinker --version-script=Sources/InkHitC/inkhit.map   only inkhit_* stays global: the Swift modules and the
#                                                            runtime are local (not exported, not interposable)
#     -Xlinker -Bsymbolic      every reference inside binds inside, whatever a host process has loaded
#     -Xlinker -z -Xlinker defs   nothing undefined beyond the libraries named (the link fails otherwise)
#     -Xlinker -z -Xlinker nodelete   dlclose() never unmaps it: the runtime's thread-local destructors, libdispatch's
#                              threads and this library's per-thread records point into its code
#     -Xlinker --gc-sections -Xlinker -soname=libInkHit.so.MAJOR
#
# (-static-stdlib adds the toolchain's static-stdlib-args.lnk: the archives, libstdc++, and --exclude-libs ALL.)
# CInkHitHost's object (the constructor that gives a host its signal dispositions back) is linked last, after
# the runtime's archives, so that its constructor runs after the runtime's static initializers
# (Sources/CInkHitHost/README.md). lld is the toolchain's (bin/ld.lld beside swiftc): with it no local Swift
# symbol is left in the dynamic symbol table; without it the system linker (gold) is used.
#
# Stripped. The library is installed without its symbol table and debug information (`objcopy --strip-debug
# --strip-unneeded`), which are kept in PREFIX/lib/.debug/NAME.debug (`objcopy --only-keep-debug`) and named by
# the library's .gnu_debuglink: gdb reads them from there by itself (the .debug folder beside
# a library is one of gdb's standard places; ldconfig does not look into it). Sizes, release build: the README,
# "Use it from C" (about 9 MB stripped; scripts/c-abi-test.sh fails above 12 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."

config=release
if [ "${1:-}" = "--debug" ]; then config=debug; shift; fi
prefix="${1:-/usr/local}"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"

header=Sources/CInkHit/include/inkhit.h
define() { sed -n "s/^#define $1 \([0-9][0-9]*\)$/\1/p" "$header"; }
major=$(define INKHIT_VERSION_MAJOR); minor=$(define INKHIT_VERSION_MINOR); patch=$(define INKHIT_VERSION_PATCH)
[ -n "$major" ] && [ -n "$minor" ] && [ -n "$patch" ] || { echo "install-c: no version in $header" >&2; exit 1; }
version="$major.$minor.$patch"

fail() { echo "install-c: $*" >&2; exit 1; }
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# Installs FILE as PREFIX/lib/NAME, stripped, with its debug information in PREFIX/lib/.debug/NAME.debug.
install_stripped() {
  local file=$1 name=$2
  objcopy --only-keep-debug "$file" "$stage/$name.debug"
  objcopy --strip-debug --strip-unneeded --add-gnu-debuglink="$stage/$name.debug" "$file" "$stage/$name.stripped"
  rm -f "$prefix/lib/$name" "$prefix/lib/.debug/$name.debug"
  install -m 0755 "$stage/$name.stripped" "$prefix/lib/$name"
  install -m 0644 "$stage/$name.debug" "$prefix/lib/.debug/$name.debug"
}

# Fails unless LIBRARY exports only symbols starting with PATTERN's prefix.
exports_only() {
  local lib=$1 prefix_re=$2 extra
  if [ "$(uname -s)" = Darwin ]; then
    extra=$(nm -gU "$lib" | awk '{print $3}' | grep -v "^_$prefix_re" || true)
  else
    extra=$(nm -D --defined-only --extern-only "$lib" | awk '{print $3}' | grep -v "^$prefix_re" || true)
  fi
  if [ -n "$extra" ]; then
    echo "install-c: $lib exports symbols other than $prefix_re*:" >&2
    echo "$extra" | head -20 >&2
    exit 1
  fi
}

case "$(uname -s)" in
  Darwin)
    # ld64: export only _inkhit_* (wildcards allowed), and an install name programs can find through @rpath.
    link_flags=(-Xlinker -exported_symbols_list -Xlinker "$PWD/Sources/InkHitC/inkhit.exports"
                -Xlinker -install_name -Xlinker "@rpath/libInkHit.$major.dylib"
                -Xlinker -current_version -Xlinker "$version" -Xlinker -compatibility_version -Xlinker "$major.0.0")
    real="libInkHit.$version.dylib"; soname="libInkHit.$major.dylib"; devlink="libInkHit.dylib"
    echo "install-c: building the $config library (swift build -c $config --product InkHitC)" >&2
    swift build -c "$config" --product InkHitC "${link_flags[@]}" >&2
    built="$(swift build -c "$config" --show-bin-path)/libInkHitC.dylib"
    [ -f "$built" ] || fail "$built was not built"
    ;;
  *)
    real="libInkHit.so.$version"; soname="libInkHit.so.$major"; devlink="libInkHit.so"
    echo "install-c: building the $config objects (swift build -c $config --product InkHitC)" >&2
    swift build -c "$config" --product InkHitC >&2
    bin="$(swift build -c "$config" --show-bin-path)"
    objects="$bin/InkHitC.product/Objects.LinkFileList"
    [ -f "$objects" ] || fail "$objects is missing (SwiftPM writes the product's object list there)"
    host_object=$(grep '/CInkHitHost\.build/host_signals\.c\.o$' "$objects" || true)
    [ -n "$host_object" ] || fail "$objects does not list CInkHitHost's host_signals.c.o"
    grep -v '/CInkHitHost\.build/host_signals\.c\.o$' "$objects" > "$stage/objects"
    linker=()
    [ -x "$(dirname "$(readlink -f "$(command -v swiftc)")")/ld.lld" ] && linker=(-use-ld=lld)
    echo "install-c: linking $real with the Swift runtime inside (swiftc -emit-library -static-stdlib)" >&2
    swiftc -emit-library -static-stdlib -module-name InkHitC -o "$stage/$real" "@$stage/objects" \
      $(pkg-config --libs-only-L freetype2 harfbuzz fribidi) "${linker[@]}" \
      -Xlinker --version-script="$PWD/Sources/InkHitC/inkhit.map" -Xlinker -soname="$soname" \
      -Xlinker -Bsymbolic -Xlinker -z -Xlinker defs -Xlinker -z -Xlinker nodelete -Xlinker --gc-sections \
      -Xlinker "$host_object" >&2
    built="$stage/$real"
    # What every user relies on, checked here so that no install can lack it (scripts/c-abi-test.sh checks more).
    swift_needed=$(readelf -d "$built" | grep -E 'NEEDED.*(swift|dispatch|BlocksRuntime)' || true)
    [ -z "$swift_needed" ] || fail "$real still needs the Swift runtime's shared libraries: $swift_needed"
    if readelf -d "$built" | grep -E '\((RUNPATH|RPATH)\)' > /dev/null; then fail "$real has a RUNPATH or RPATH"; fi
    ;;
esac

# Only the C interface may be exported.
exports_only "$built" inkhit_

install -d "$prefix/include" "$prefix/lib/pkgconfig"
install -m 0644 "$header" "$prefix/include/inkhit.h"
# The Qt adapter is a C++ header over inkhit.h and QtGui (nothing to build: a Qt program compiles it).
install -m 0644 adapters/qt/inkhit_qt.hpp "$prefix/include/inkhit_qt.hpp"
rm -f "$prefix/lib/$real" "$prefix/lib/$soname" "$prefix/lib/$devlink"
if [ "$(uname -s)" = Darwin ]; then
  install -m 0755 "$built" "$prefix/lib/$real"
else
  install -d "$prefix/lib/.debug"
  install_stripped "$built" "$real"
fi
ln -s "$real" "$prefix/lib/$soname"
ln -s "$soname" "$prefix/lib/$devlink"

# -rpath: a program linked with these flags finds libInkHit under any prefix without LD_LIBRARY_PATH.
cat > "$prefix/lib/pkgconfig/inkhit.pc" <<PC
prefix=$prefix
exec_prefix=\${prefix}
libdir=\${exec_prefix}/lib
includedir=\${prefix}/include

Name: inkhit
Description: Hit-testing text by the shape of its ink (the C interface of InkHit)
Version: $version
Libs: -L\${libdir} -lInkHit -Wl,-rpath,\${libdir}
Cflags: -I\${includedir}
PC

# The Pango adapter: plain C over the installed libInkHit (only the public inkhit.h), compiled here with the
# system C compiler against the system's Pango and cairo. It is not a SwiftPM target, so the Swift package
# never needs Pango, cairo or GLib (neither to build nor for its users); and being a client of the public
# header, it shows that header is enough for a real engine. Linux (ELF) only for now.
pango_modules="pango pangocairo pangoft2 cairo fontconfig harfbuzz"
pango_built=""
if [ "$(uname -s)" != Darwin ] && pkg-config --exists $pango_modules; then
  pango_real="libInkHitPango.so.$version"; pango_soname="libInkHitPango.so.$major"
  # RUNPATH $ORIGIN: it finds the libInkHit installed beside it, wherever the folder is moved.
  cc -std=c11 -O2 -g -fPIC -shared -Wall -Wextra -Werror -I"$prefix/include" \
    adapters/pango/inkhit_pango.c -o "$stage/$pango_real" \
    $(pkg-config --cflags --libs $pango_modules) -L"$prefix/lib" -lInkHit -lm \
    -Wl,--version-script="$PWD/adapters/pango/inkhit_pango.map" -Wl,-soname,"$pango_soname" -Wl,-rpath,'$ORIGIN' \
    -Wl,-z,defs >&2
  exports_only "$stage/$pango_real" inkhit_pango_
  install -m 0644 adapters/pango/inkhit_pango.h "$prefix/include/inkhit_pango.h"
  rm -f "$prefix/lib/$pango_real" "$prefix/lib/$pango_soname" "$prefix/lib/libInkHitPango.so"
  install_stripped "$stage/$pango_real" "$pango_real"
  ln -s "$pango_real" "$prefix/lib/$pango_soname"
  ln -s "$pango_soname" "$prefix/lib/libInkHitPango.so"
  cat > "$prefix/lib/pkgconfig/inkhit-pango.pc" <<PC
prefix=$prefix
exec_prefix=\${prefix}
libdir=\${exec_prefix}/lib
includedir=\${prefix}/include

Name: inkhit-pango
Description: What pango_cairo_show_layout draws, recorded into an InkHit index (the Pango adapter of InkHit)
Version: $version
Requires: inkhit $pango_modules
Libs: -L\${libdir} -lInkHitPango -Wl,-rpath,\${libdir}
Cflags: -I\${includedir}
PC
  pango_built="yes"
else
  echo "install-c: the Pango adapter was not built (it needs Linux and pkg-config modules: $pango_modules;" \
       "./inkhit deps installs them)" >&2
fi

# A system prefix: refresh the loader's cache so programs linked without the rpath find the library too.
if [ "$(uname -s)" != Darwin ] && [ "$(id -u)" -eq 0 ] && { [ "$prefix" = /usr/local ] || [ "$prefix" = /usr ]; }; then
  ldconfig 2>/dev/null || true
fi

echo "install-c: installed libInkHit $version ($config) under $prefix:" >&2
echo "  $prefix/include/inkhit.h" >&2
echo "  $prefix/lib/$real ($soname, $devlink; $(du -k "$prefix/lib/$real" | cut -f1) KiB)" >&2
[ -f "$prefix/lib/.debug/$real.debug" ] && echo "  $prefix/lib/.debug/$real.debug (its debug information)" >&2
echo "  $prefix/lib/pkgconfig/inkhit.pc" >&2
if [ -n "$pango_built" ]; then
  echo "  $prefix/include/inkhit_pango.h, $prefix/lib/$pango_real, $prefix/lib/pkgconfig/inkhit-pango.pc" >&2
fi
case "$prefix" in
  /usr|/usr/local) ;;
  *) echo "  for pkg-config: export PKG_CONFIG_PATH=$prefix/lib/pkgconfig" >&2 ;;
esac
