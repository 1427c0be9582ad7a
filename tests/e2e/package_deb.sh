#!/usr/bin/env bash
# The Debian package as a user gets it: `cpack -G DEB` from the build tree, its metadata (name,
# dependencies found by dpkg-shlibdeps), then unpacked into an empty root with dpkg-deb -x and run
# from there with a PATH that holds nothing of the build: ridgeline-cli --version, an import, and
# the GUI's screenshot of the packaged sample data. Desktop file, hicolor icons and AppStream
# metainfo are checked (validated where the validators are installed).
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

root="$work/root"
dpkg-deb -x "$deb" "$root"
for f in usr/bin/ridgeline usr/bin/ridgeline-cli usr/bin/ridgeline-bench usr/share/applications/ridgeline.desktop \
         usr/share/icons/hicolor/scalable/apps/ridgeline.svg usr/share/icons/hicolor/48x48/apps/ridgeline.png \
         usr/share/icons/hicolor/256x256/apps/ridgeline.png usr/share/metainfo/io.github.ridgeline.Ridgeline.metainfo.xml \
         usr/share/ridgeline/hardware/mi300x.json usr/share/ridgeline/sample_data/README.md; do
  [ -e "$root/$f" ] || fail "the package has no /$f"
done
if command -v desktop-file-validate > /dev/null; then
  desktop-file-validate "$root/usr/share/applications/ridgeline.desktop" || fail "desktop-file-validate"
fi
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
"$root/usr/bin/ridgeline" --db "$work/gui.db" --screenshot "$work/shot.png" "$root/usr/share/ridgeline/sample_data" \
  > "$work/gui.log" 2>&1 || { cat "$work/gui.log"; fail "ridgeline --screenshot"; }
size=$(stat -c %s "$work/shot.png")
[ "$size" -gt 20000 ] || fail "the screenshot is $size bytes: blank?"
[ -n "${RIDGELINE_TEST_SCREENSHOT_DIR:-}" ] && cp "$work/shot.png" "$RIDGELINE_TEST_SCREENSHOT_DIR/package-screenshot.png"
echo "OK: $(basename "$deb") installs, runs and shows the sample data ($size-byte screenshot)"
