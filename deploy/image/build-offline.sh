#!/usr/bin/env bash
# Builds the agent image of ./Dockerfile as a docker-archive (the `docker save` layout: manifest.json, the
# config, one layer tar) tagged localhost/pleg-doctor-agent:dev, without a Docker daemon or a registry:
# from this machine's Node 20 binary, the shared libraries `ldd` says it loads, and dist/ (`npm run build`).
# For tests: `cluster.sh image-import OUT.tar` loads it into a test cluster's containerd.
#
#   bash deploy/image/build-offline.sh OUT.tar
#
# NODE_BIN (default: `command -v node`) picks the Node binary; it must be Node 20 (the Dockerfile's base).
# The tree is the Dockerfile's: /usr/local/bin/node, its libraries at the paths ldd prints, /etc/passwd and
# /etc/group from rootfs/, /opt/pleg-doctor/{cli.js,cliRemote.js,cliAgent.js}; user 65532:65532; entrypoint
# node /opt/pleg-doctor/cli.js, command `agent`. Files are written with mtime 0 and owner 0, so the same
# inputs give the same archive.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TAG="localhost/pleg-doctor-agent:dev"

die() { printf 'build-offline: %s\n' "$*" >&2; exit 1; }

OUT="${1:-}"
[ -n "$OUT" ] && [ "$#" -eq 1 ] || die "usage: bash deploy/image/build-offline.sh OUT.tar"
case "$OUT" in /*) ;; *) OUT="$PWD/$OUT" ;; esac
NODE_BIN="${NODE_BIN:-$(command -v node || true)}"
[ -n "$NODE_BIN" ] && [ -x "$NODE_BIN" ] || die "no node binary (set NODE_BIN)"
version="$("$NODE_BIN" --version)"
case "$version" in v20.*) ;; *) die "$NODE_BIN is Node $version; the image is Node 20 (set NODE_BIN)" ;; esac
for f in dist/cli.js dist/cliRemote.js dist/cliAgent.js; do [ -s "$REPO/$f" ] || die "$REPO/$f is missing: run npm run build first"; done
for tool in ldd tar sha256sum; do command -v "$tool" > /dev/null || die "$tool is needed"; done

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
ROOT="$WORK/rootfs"
mkdir -p "$ROOT/usr/local/bin" "$ROOT/opt/pleg-doctor" "$ROOT/etc" "$ROOT/tmp"
chmod 1777 "$ROOT/tmp"

# Every library the dynamic loader resolves for node ("name => /path (addr)"), and the loader itself
# (the line with only "/path (addr)"), copied as files (symlinks resolved) under the path ldd prints.
libs="$(ldd "$NODE_BIN" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')"
[ -n "$libs" ] || die "ldd printed no libraries for $NODE_BIN (a static binary needs none: remove this check)"
if ldd "$NODE_BIN" | grep -q 'not found'; then die "ldd $NODE_BIN: a library is not found"; fi
while IFS= read -r lib; do
  mkdir -p "$ROOT$(dirname "$lib")"
  cp -L "$lib" "$ROOT$lib"
done <<< "$libs"
cp -L "$NODE_BIN" "$ROOT/usr/local/bin/node"
cp "$HERE/rootfs/etc/passwd" "$HERE/rootfs/etc/group" "$ROOT/etc/"
cp "$REPO/dist/cli.js" "$REPO/dist/cliRemote.js" "$REPO/dist/cliAgent.js" "$ROOT/opt/pleg-doctor/"

# Entries named without a leading "./", as `docker save` writes them.
tarball() { (cd "$1" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu -cf "$2" -- *); }
tarball "$ROOT" "$WORK/layer.tar"
layer_sha="$(sha256sum "$WORK/layer.tar" | cut -d' ' -f1)"
mkdir -p "$WORK/archive/$layer_sha"
mv "$WORK/layer.tar" "$WORK/archive/$layer_sha/layer.tar"

cat > "$WORK/config.json" <<JSON
{"architecture":"amd64","os":"linux","created":"1970-01-01T00:00:00Z","config":{"User":"65532:65532","Env":["PATH=/usr/local/bin:/usr/bin:/bin"],"Entrypoint":["/usr/local/bin/node","/opt/pleg-doctor/cli.js"],"Cmd":["agent"],"WorkingDir":"/"},"rootfs":{"type":"layers","diff_ids":["sha256:$layer_sha"]},"history":[{"created":"1970-01-01T00:00:00Z","created_by":"deploy/image/build-offline.sh: node $version and dist/"}]}
JSON
config_sha="$(sha256sum "$WORK/config.json" | cut -d' ' -f1)"
mv "$WORK/config.json" "$WORK/archive/$config_sha.json"
printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["%s/layer.tar"]}]\n' "$config_sha" "$TAG" "$layer_sha" > "$WORK/archive/manifest.json"
printf '{"%s":{"%s":"%s"}}\n' "${TAG%:*}" "${TAG##*:}" "$layer_sha" > "$WORK/archive/repositories"

tarball "$WORK/archive" "$OUT.part"
mv "$OUT.part" "$OUT"
printf 'build-offline: wrote %s (%s, node %s, %s bytes)\n' "$OUT" "$TAG" "$version" "$(stat -c %s "$OUT")" >&2
