#!/usr/bin/env bash
# Packs the GPU kit (bench/device/README.md) into DEST (default .devkit, git-ignored) for the lent GPU machine,
# which starts bare (no Node, Chromium or ffmpeg) and takes at most 64 MiB of files a call. Two
# parts, one call each, back to back on the same warm machine (kit-run.sh unpacks each into
# /tmp/rfkit, which stays while the machine is held):
#   a/ Chromium of @sparticuz/chromium (ANGLE with Vulkan and SwiftShader) as xz (~56 MiB) and the
#      GL dispatch libraries (Debian packages, 0.4 MiB),
#      and the working tree (~4 MiB) travels with every call;
#   b/ Chromium's libraries (NSS, SwiftShader, libvulkan), glvnd's libGLdispatch (the NVIDIA Vulkan
#      ICD needs it) and fonts, Node 24 (the official binary, scripts/node-runtime.sh) as xz, ffmpeg (@ffmpeg-installer's
#      static build: the MP4 remux, and x264 if WebCodecs has no H.264), kit.mjs (bench/device/kit.ts
#      bundled by esbuild with everything but sharp), sharp with its libvips, the prebuilt stage.
# xz of Chromium and Node takes minutes on 2 cores: kept in ~/.cache/render-farm/devkit by sha256.
# Usage: bash bench/device/kit-pack.sh [DEST]; then see bench/device/README.md "The kit".
set -euo pipefail
cd "$(dirname "$0")/../.."
DEST=$(realpath -m "${1:-.devkit}")
CACHE=${RENDER_FARM_CACHE:-$HOME/.cache/render-farm}/devkit
SP=node_modules/@sparticuz/chromium/bin
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
rm -rf "$DEST"; mkdir -p "$DEST/a" "$DEST/b" "$CACHE"

# xz of FILE into OUT, cached by the input's sha256
xzc() {
  local sum; sum=$(sha256sum "$1" | cut -c1-16)
  if [ ! -s "$CACHE/$sum.xz" ]; then
    xz --x86 --lzma2=preset=9e,dict=192MiB -T1 -c "$1" > "$CACHE/$sum.xz.part" && mv "$CACHE/$sum.xz.part" "$CACHE/$sum.xz"
  fi
  cp "$CACHE/$sum.xz" "$2"
}

echo "== a: Chromium; its libraries go in b"
node -e 'const fs=require("fs"),z=require("zlib");for(const f of ["chromium","al2023.tar","swiftshader.tar","fonts.tar"])fs.writeFileSync(process.argv[1]+"/"+f,z.brotliDecompressSync(fs.readFileSync(process.argv[2]+"/"+f+".br")))' "$W" "$SP"
xzc "$W/chromium" "$DEST/a/chromium.xz"
mkdir -p "$W/cr/lib" "$W/cr/fonts"
tar xf "$W/al2023.tar" -C "$W/cr"; tar xf "$W/swiftshader.tar" -C "$W/cr"; tar xf "$W/fonts.tar" -C "$W/cr/fonts"
# al2023.tar holds lib/ (NSS and friends); libvulkan.so.1 goes beside chromium, where ANGLE looks
(cd "$W" && apt-get download libglvnd0 >/dev/null 2>&1 && dpkg -x libglvnd0_*.deb g && cp -a g/usr/lib/x86_64-linux-gnu/libGLdispatch.so* cr/lib/)
tar cf - -C "$W/cr" . | xz -9e > "$DEST/b/libs.tar.xz"

# the GL dispatch libraries the NVIDIA Vulkan driver needs to start (the H200 host lacked them;
# kit-run.sh installs them there): Debian's packages, as the device tool's README recommends
mkdir -p "$DEST/a/gl"
(cd "$DEST/a/gl" && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null 2>&1) \
  || echo "apt-get download failed: part a has no GL dispatch libraries" >&2

echo "== b: Node, ffmpeg, the kit program, sharp, the stage"
NODE_BIN=$(bash scripts/node-runtime.sh 24)/node
xzc "$NODE_BIN" "$DEST/b/node.xz"
xzc node_modules/@ffmpeg-installer/linux-x64/ffmpeg "$DEST/b/ffmpeg.xz"
K="$W/kit"; mkdir -p "$K/node_modules/@img"
# sharp is native (its .node and libvips are found by path): it travels as files, not bundled
npx esbuild bench/device/kit.ts --bundle --platform=node --format=esm --target=node22 --log-level=warning \
  --external:sharp --external:bufferutil --external:utf-8-validate \
  --banner:js="import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" \
  --outfile="$K/kit.mjs"
npx tsx bench/device/kit-stage.ts "$K/stage.json"
# the engine finds its package root by a package.json (src/package-root.ts)
node -e 'const p=require("./package.json");process.stdout.write(JSON.stringify({name:"render-farm-kit",version:p.version,type:"module",private:true}))' > "$K/package.json"
cp -a node_modules/sharp node_modules/detect-libc node_modules/semver "$K/node_modules/"
cp -a node_modules/@img/colour node_modules/@img/sharp-linux-x64 node_modules/@img/sharp-libvips-linux-x64 "$K/node_modules/@img/"
cp bench/device/kit-run.sh "$K/"
git rev-parse --short HEAD > "$K/COMMIT"
tar cf - -C "$K" . | xz -9e > "$DEST/b/kit.tar.xz"

du -b "$DEST"/a/* "$DEST"/b/* | awk '{ printf "%8.1f MiB  %s\n", $1 / 1048576, $2 }'
tree=$(git ls-files -z | xargs -0 du -cb | tail -1 | cut -f1)
printf 'the working tree: %.1f MiB\n' "$(echo "$tree / 1048576" | bc -l)"
for part in a b; do
  size=$(du -sb "$DEST/$part" | cut -f1)
  printf 'part %s: %.1f MiB, with the tree %.1f of 64\n' "$part" "$(echo "$size / 1048576" | bc -l)" "$(echo "($size + $tree) / 1048576" | bc -l)"
  # the working tree travels with each part: both must fit in 64 MiB
  [ $((size + tree)) -lt $((64 * 1048576)) ] || { echo "part $part and the working tree are over the 64 MiB a device call carries" >&2; exit 1; }
done
