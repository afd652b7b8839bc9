#!/usr/bin/env bash
# Builds the C interface's shared library (the InkHitC product) and installs it for C, C++ and Python users:
#
#   PREFIX/include/inkhit.h                      the contract (Sources/CInkHit/include/inkhit.h)
#   PREFIX/lib/libInkHit.so.MAJOR.MINOR.PATCH    the library, soname libInkHit.so.MAJOR
#   PREFIX/lib/libInkHit.so.MAJOR -> …           what programs load
#   PREFIX/lib/libInkHit.so -> …                 what `cc … -lInkHit` links
#   PREFIX/lib/pkgconfig/inkhit.pc               `pkg-config --cflags --libs inkhit`
#
# and, where pkg-config finds Pango, cairo, fontconfig and HarfBuzz (./inkhit deps installs them), the Pango
# adapter (adapters/pango):
#
#   PREFIX/include/inkhit_pango.h                inkhit_pango_add_layout()
#   PREFIX/lib/libInkHitPango.so.MAJOR.MINOR.PATCH  (soname libInkHitPango.so.MAJOR, links as for libInkHit)
#   PREFIX/lib/pkgconfig/inkhit-pango.pc         `pkg-config --cflags --libs inkhit-pango`
#
# (macOS: libInkHit.MAJOR.MINOR.PATCH.dylib, install name @rpath/libInkHit.MAJOR.dylib.)
#
# Usage: scripts/install-c.sh [--debug] [PREFIX]      (./inkhit install-c runs it; PREFIX default /usr/local)
#
# SwiftPM names a library product's file after the product (libInkHitC.so: "InkHit" is taken by the Swift
# index product), links it without a soname and exports every public Swift symbol of the modules inside. So
# the product is linked here with the flags that make it the library the header describes: a version
# script (Sources/InkHitC/inkhit.map) that keeps only the inkhit_* functions global, the soname, and, when
# the toolchain has it, lld (through a SwiftPM toolset, which changes the link step only), which leaves no
# local Swift symbols in the dynamic symbol table. The file is then installed under its own name. Only the
# link step differs from a plain `swift build`: nothing is compiled twice.
#
# The library needs the Swift runtime (libswiftCore.so and friends) at run time. It records the toolchain's
# runtime directory as its RUNPATH (`swift -print-target-info`, "runtimeLibraryPaths"), so programs find it
# as long as that toolchain stays installed; to ship elsewhere, install the runtime libraries next to
# libInkHit (RUNPATH also has $ORIGIN) or in the system's library path.
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

link_flags=()
case "$(uname -s)" in
  Darwin)
    # ld64: export only _inkhit_* (wildcards allowed), and an install name programs can find through @rpath.
    link_flags=(-Xlinker -exported_symbols_list -Xlinker "$PWD/Sources/InkHitC/inkhit.exports"
                -Xlinker -install_name -Xlinker "@rpath/libInkHit.$major.dylib"
                -Xlinker -current_version -Xlinker "$version" -Xlinker -compatibility_version -Xlinker "$major.0.0")
    built_name=libInkHitC.dylib
    real="libInkHit.$version.dylib"; soname="libInkHit.$major.dylib"; devlink="libInkHit.dylib"
    ;;
  *)
    link_flags=(-Xlinker "--version-script=$PWD/Sources/InkHitC/inkhit.map" -Xlinker "-soname=libInkHit.so.$major")
    lld="$(dirname "$(readlink -f "$(command -v swiftc)")")/ld.lld"
    if [ -x "$lld" ]; then
      toolset="$(mktemp)"
      trap 'rm -f "$toolset"' EXIT
      printf '{ "schemaVersion": "1.0", "linker": { "path": "%s" } }\n' "$lld" > "$toolset"
      link_flags+=(--toolset "$toolset")
    fi
    built_name=libInkHitC.so
    real="libInkHit.so.$version"; soname="libInkHit.so.$major"; devlink="libInkHit.so"
    ;;
esac

echo "install-c: building the $config library (swift build -c $config --product InkHitC)" >&2
swift build -c "$config" --product InkHitC "${link_flags[@]}" >&2
built="$(swift build -c "$config" --show-bin-path)/$built_name"
[ -f "$built" ] || { echo "install-c: $built was not built" >&2; exit 1; }

# Only the C interface may be exported.
if [ "$(uname -s)" = Darwin ]; then
  extra=$(nm -gU "$built" | awk '{print $3}' | grep -v '^_inkhit_' || true)
else
  extra=$(nm -D --defined-only --extern-only "$built" | awk '{print $3}' | grep -v '^inkhit_' || true)
fi
if [ -n "$extra" ]; then
  echo "install-c: $built exports symbols other than inkhit_*:" >&2
  echo "$extra" | head -20 >&2
  exit 1
fi

install -d "$prefix/include" "$prefix/lib/pkgconfig"
install -m 0644 "$header" "$prefix/include/inkhit.h"
rm -f "$prefix/lib/$real" "$prefix/lib/$soname" "$prefix/lib/$devlink"
install -m 0755 "$built" "$prefix/lib/$real"
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
  pango_dir="$(mktemp -d)"
  cc -std=c11 -O2 -g -fPIC -shared -Wall -Wextra -Werror -I"$prefix/include" \
    adapters/pango/inkhit_pango.c -o "$pango_dir/$pango_real" \
    $(pkg-config --cflags --libs $pango_modules) -L"$prefix/lib" -lInkHit -lm \
    -Wl,--version-script="$PWD/adapters/pango/inkhit_pango.map" -Wl,-soname,"$pango_soname" -Wl,-rpath,'$ORIGIN' >&2
  extra=$(nm -D --defined-only --extern-only "$pango_dir/$pango_real" | awk '{print $3}' | grep -v '^inkhit_pango_' || true)
  if [ -n "$extra" ]; then
    echo "install-c: $pango_real exports symbols other than inkhit_pango_*:" >&2
    echo "$extra" | head -20 >&2
    exit 1
  fi
  install -m 0644 adapters/pango/inkhit_pango.h "$prefix/include/inkhit_pango.h"
  rm -f "$prefix/lib/$pango_real" "$prefix/lib/$pango_soname" "$prefix/lib/libInkHitPango.so"
  install -m 0755 "$pango_dir/$pango_real" "$prefix/lib/$pango_real"
  ln -s "$pango_real" "$prefix/lib/$pango_soname"
  ln -s "$pango_soname" "$prefix/lib/libInkHitPango.so"
  rm -rf "$pango_dir"
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
echo "  $prefix/lib/$real ($soname, $devlink)" >&2
echo "  $prefix/lib/pkgconfig/inkhit.pc" >&2
if [ -n "$pango_built" ]; then
  echo "  $prefix/include/inkhit_pango.h, $prefix/lib/$pango_real, $prefix/lib/pkgconfig/inkhit-pango.pc" >&2
fi
case "$prefix" in
  /usr|/usr/local) ;;
  *) echo "  for pkg-config: export PKG_CONFIG_PATH=$prefix/lib/pkgconfig" >&2 ;;
esac
