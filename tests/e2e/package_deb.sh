#!/usr/bin/env bash
# The Debian package as a user gets it: `cpack -G DEB` from the build tree, its metadata (name,
# dependencies found by dpkg-shlibdeps), its binaries stripped, then installed by dpkg itself into
# an empty root (dpkg --root: the maintainer-side checks dpkg-deb -x skips, such as file conflicts
# and the package database) and run from there with a PATH that holds nothing of the build:
# ridgeline-cli --version, an import, ridgeline --help/--version without a display and the GUI's
# screenshot of the packaged sample data. Desktop file, hicolor icons and AppStream metainfo are
# checked (validated where the validators are installed).
set -euo pipefail
build=$(cd "$1" && pwd)
work=$(mktemp -d /tmp/ridgeline-deb-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

command -v cpack > /dev/null || { echo "SKIP: no cpack"; exit 77; }
command -v dpkg-deb > /dev/null || { echo "SKIP: no dpkg-deb"; exit 77; }
(cd "$build" && cpack -G DEB -B "$work/pkg" > "$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/pkg/*.deb | head -n 1)
[ -f "$deb" ] || fail "no .deb in $work/pkg"
echo "package: $(basename "$deb")"

info=$(dpkg-deb -I "$deb")
echo "$info" | grep -q '^ Package: ridgeline$' || fail "package name: $info"
depends=$(echo "$info" | sed -n 's/^ Depends: //p')
echo "depends: $depends"
for lib in libqt6widgets6 libqt6charts6 libsqlite3 libsimdjson "openmpi-bin | mpich"; do
  echo "$depends" | grep -q -- "$lib" || fail "Depends lacks $lib"
done

# Stripped: debug info would make the package ~470 MB (CPACK_STRIP_FILES).
if command -v readelf > /dev/null; then
  mkdir -p "$work/peek"
  dpkg-deb -x "$deb" "$work/peek"
  for exe in ridgeline ridgeline-cli ridgeline-bench; do
    # Captured first: with `readelf | grep -q`, grep's early exit could kill readelf and hide a match.
    sections=$(readelf -S "$work/peek/usr/bin/$exe")
    ! grep -q '\.debug_info' <<< "$sections" || fail "/usr/bin/$exe is not stripped"
  done
  rm -rf "$work/peek"
fi

root="$work/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: > "$root/var/lib/dpkg/status"
# --force-depends: the empty root has none of the dependencies (they are the host's, found through
# the host's /usr/lib at run time); --force-not-root lets a non-root CI user install into its own root.
# Should dpkg itself be missing or refuse the root, dpkg-deb -x is the fallback, so that the run
# checks below still say something (the message says which path was taken).
if command -v dpkg > /dev/null &&
   dpkg --root="$root" --force-depends --force-not-root --log=/dev/null -i "$deb" > "$work/dpkg.log" 2>&1; then
  dpkg --root="$root" -s ridgeline | grep -q '^Status: install ok installed$' || fail "dpkg --root: not installed"
  echo "installed with dpkg --root"
else
  cat "$work/dpkg.log" 2>/dev/null || true
  echo "dpkg --root could not install here; unpacked with dpkg-deb -x instead"
  dpkg-deb -x "$deb" "$root"
fi
for f in usr/bin/ridgeline usr/bin/ridgeline-cli usr/bin/ridgeline-bench usr/share/applications/ridgeline.desktop \
         usr/share/icons/hicolor/scalable/apps/ridgeline.svg usr/share/icons/hicolor/48x48/apps/ridgeline.png \
         usr/share/icons/hicolor/256x256/apps/ridgeline.png usr/share/metainfo/io.github.ridgeline.Ridgeline.metainfo.xml \
         usr/share/ridgeline/hardware/mi300x.json usr/share/ridgeline/sample_data/README.md \
         usr/share/doc/ridgeline/copyright usr/share/doc/ridgeline/LICENSE; do
  [ -e "$root/$f" ] || fail "the package has no /$f"
done
if command -v desktop-file-validate > /dev/null; then
  desktop-file-validate "$root/usr/share/applications/ridgeline.desktop" || fail "desktop-file-validate"
fi
grep -q '^License: Apache-2.0$' "$root/usr/share/doc/ridgeline/copyright" || fail "copyright: no Apache-2.0 licence"
grep -q '<project_license>Apache-2.0</project_license>' "$root/usr/share/metainfo/io.github.ridgeline.Ridgeline.metainfo.xml" ||
  fail "metainfo: no project_license"
if command -v appstreamcli > /dev/null; then
  appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.ridgeline.Ridgeline.metainfo.xml" || fail "appstreamcli validate"
fi

# Run from the unpacked root only: resources next to the executables (../share/ridgeline).
export PATH=/usr/bin:/bin HOME="$work/home" XDG_DATA_HOME="$work/data" QT_QPA_PLATFORM=offscreen
mkdir -p "$HOME"
version=$("$root/usr/bin/ridgeline-cli" --version)
# The first line is the program and the package's version; the rest the libraries it runs with.
[ "$(head -1 <<< "$version")" = "ridgeline-cli $(sed -n 's/^ Version: //p' <<< "$info")" ] || fail "ridgeline-cli --version said '$version'"
grep -q '^Qt 6' <<< "$version" || fail "ridgeline-cli --version names no Qt: '$version'"
grep -q '^SQLite 3' <<< "$version" || fail "ridgeline-cli --version names no SQLite: '$version'"
"$root/usr/bin/ridgeline-cli" --db "$work/ws.db" import "$root/usr/share/ridgeline/sample_data/nccl-tests_8xH100_all_collectives.txt" \
  > "$work/import.log" || { cat "$work/import.log"; fail "import from the packaged sample data"; }
"$root/usr/bin/ridgeline-cli" --db "$work/ws.db" profile list | grep -q mi300x || fail "packaged hardware profiles not found"
# --help and --version print without a display (no QApplication for them) ...
for info in --help --version; do
  env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$root/usr/bin/ridgeline" $info > "$work/info.log" 2>&1 ||
    { cat "$work/info.log"; fail "ridgeline $info without a display"; }
done
grep -q '^ridgeline 0\.\|^ridgeline [0-9]' "$work/info.log" || { cat "$work/info.log"; fail "ridgeline --version"; }
# ... and --screenshot picks the offscreen platform itself when there is none.
env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$root/usr/bin/ridgeline" --db "$work/gui.db" --screenshot "$work/shot.png" "$root/usr/share/ridgeline/sample_data" \
  > "$work/gui.log" 2>&1 || { cat "$work/gui.log"; fail "ridgeline --screenshot"; }
size=$(stat -c %s "$work/shot.png")
[ "$size" -gt 20000 ] || fail "the screenshot is $size bytes: blank?"
[ -n "${RIDGELINE_TEST_SCREENSHOT_DIR:-}" ] && cp "$work/shot.png" "$RIDGELINE_TEST_SCREENSHOT_DIR/package-screenshot.png"
echo "OK: $(basename "$deb") installs, runs and shows the sample data ($size-byte screenshot)"
