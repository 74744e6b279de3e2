#!/usr/bin/env bash
# Packs what bench/device/device.sh needs into DEST (default .devcarry) for the lent GPU machine,
# which has no Node and no Chromium: the @sparticuz/chromium build (ANGLE with Vulkan and
# SwiftShader backends, no GL backend) recompressed with xz (the machine has no brotli), its NSS
# libs, the glvnd dispatch lib the NVIDIA Vulkan ICD needs, and the stage page (dump-stage.ts).
# Everything must stay under the tool's 64 MiB; this comes to about 61 MiB.
set -euo pipefail
DEST=${1:-.devcarry}; W=$(mktemp -d); mkdir -p "$DEST" "$W/cr/lib"
SP=node_modules/@sparticuz/chromium/bin
node -e 'const fs=require("fs"),z=require("zlib");for(const f of ["chromium","al2023.tar","swiftshader.tar"])fs.writeFileSync(process.argv[1]+"/"+f,z.brotliDecompressSync(fs.readFileSync(process.argv[2]+"/"+f+".br")))' "$W" "$SP"
xz --x86 --lzma2=preset=9e,dict=192MiB -T1 -c "$W/chromium" > "$DEST/chromium.xz"   # ~7 min on 2 cores
tar xf "$W/al2023.tar" -C "$W/cr"; tar xf "$W/swiftshader.tar" -C "$W/cr"; mv "$W/cr/libvulkan.so.1" "$W/cr/lib/"
(cd "$W" && apt-get download libglvnd0 && dpkg -x libglvnd0_*.deb g && cp -a g/usr/lib/x86_64-linux-gnu/libGLdispatch.so* cr/lib/)
tar cf - -C "$W/cr" lib libEGL.so libGLESv2.so libvk_swiftshader.so vk_swiftshader_icd.json | xz -9e > "$DEST/libs.tar.xz"
npx tsx bench/device/dump-stage.ts "$W/stage" && tar cJf "$DEST/stage.tar.xz" -C "$W/stage" .
cp bench/device/run.py bench/device/vkprobe.py "$DEST/"; sed 's#\.devcarry/#'"$DEST"'/#g' bench/device/device.sh > "$DEST/device.sh"
rm -rf "$W"; du -sh "$DEST"
