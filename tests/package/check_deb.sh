#!/usr/bin/env bash
# Checks the Debian package's contents and metadata (dpkg-deb -c / -f): tests/CMakeLists.txt runs it as the
# ctest test `package-contents` (label `package`). It checks $LANEMAP_DEB, else the newest dist/lanemap_*.deb;
# with LANEMAP_BUILD_PACKAGE=1 it first builds one with ./dev.sh package. Without a package it skips (77),
# so the normal suite never builds one. Usage: check_deb.sh SOURCE_DIR VERSION
set -euo pipefail
src=$1
version=$2
cd "$src"
if [ "${LANEMAP_BUILD_PACKAGE:-0}" = 1 ]; then
  ./dev.sh package >/dev/null
fi
deb=${LANEMAP_DEB:-$(ls -t dist/lanemap_*.deb 2>/dev/null | head -n1 || true)}
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
  echo "SKIP: no package (./dev.sh package builds dist/lanemap_${version}_amd64.deb; or set LANEMAP_DEB)"
  exit 77
fi
echo "checking $deb"
fail=0
expect() { # expect WHAT ACTUAL WANTED
  if [ "$2" != "$3" ]; then echo "FAIL: $1 is '$2', expected '$3'"; fail=1; fi
}
expect Package "$(dpkg-deb -f "$deb" Package)" lanemap
expect Version "$(dpkg-deb -f "$deb" Version)" "$version"
expect Architecture "$(dpkg-deb -f "$deb" Architecture)" amd64
expect "file name" "$(basename "$deb")" "lanemap_${version}_amd64.deb"
depends=$(dpkg-deb -f "$deb" Depends)
# Computed by dpkg-shlibdeps: libc and (with the app) the C++ runtime and Qt 6 from Debian; never CUDA.
# lanemap-cli links libstdc++ statically (app/CMakeLists.txt), so only the app needs libstdc++6.
for want in libc6; do
  case "$depends" in *"$want"*) ;; *) echo "FAIL: Depends lacks $want: $depends"; fail=1 ;; esac
done
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
if grep -q '^\./usr/bin/lanemap$' <<<"$contents"; then
  for want in libstdc++6 libqt6widgets6 libqt6svg6; do
    case "$depends" in *"$want"*) ;; *) echo "FAIL: the app is packaged but Depends lacks $want: $depends"; fail=1 ;; esac
  done
  for f in ./usr/share/applications/lanemap.desktop ./usr/share/icons/hicolor/scalable/apps/lanemap.svg \
           ./usr/share/metainfo/io.github.lanemap.lanemap.metainfo.xml ./usr/share/man/man1/lanemap.1.gz; do
    grep -qxF "$f" <<<"$contents" || { echo "FAIL: missing $f"; fail=1; }
  done
fi
case "$depends" in *cuda*|*nvidia*) echo "FAIL: Depends names CUDA: $depends"; fail=1 ;; esac
for f in ./usr/bin/lanemap-cli ./usr/share/man/man1/lanemap-cli.1.gz \
         ./usr/share/bash-completion/completions/lanemap-cli ./usr/share/zsh/vendor-completions/_lanemap-cli \
         ./usr/share/doc/lanemap/copyright ./usr/share/doc/lanemap/changelog.gz ./usr/share/doc/lanemap/CHANGELOG.md; do
  grep -qxF "$f" <<<"$contents" || { echo "FAIL: missing $f"; fail=1; }
done
grep -q '^\./usr/share/lanemap/probe/.*\.json$' <<<"$contents" || { echo "FAIL: no recorded probe reports"; fail=1; }
# The packaged CLI runs and knows its version.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp"
"$tmp/usr/bin/lanemap-cli" --version | grep -q "lanemap-cli $version (git " || { echo "FAIL: --version"; fail=1; }
[ "$("$tmp/usr/bin/lanemap-cli" list | wc -l)" -gt 700 ] || { echo "FAIL: lanemap-cli list"; fail=1; }
# A CUDA build ships the probe module in <libdir>/lanemap, and the packaged CLI finds it there (without a GPU
# the CUDA runtime inside the module says why, never "probe module ... not found").
probe_err=$("$tmp/usr/bin/lanemap-cli" probe mma.m16n8k16.f16 2>&1 >/dev/null)
case "$probe_err" in
  *"built without CUDA"*) ;;
  *)
    grep -q '^\./usr/lib/\(.*/\)\?lanemap/liblanemap_probe_kernels\.so$' <<<"$contents" ||
      { echo "FAIL: a CUDA build without usr/lib/.../lanemap/liblanemap_probe_kernels.so"; fail=1; }
    case "$probe_err" in *"probe module"*) echo "FAIL: the packaged CLI: $probe_err"; fail=1 ;; esac ;;
esac
[ $fail = 0 ] && echo "package ok: $(dpkg-deb -c "$deb" | wc -l) entries; Depends: $depends"
exit $fail
