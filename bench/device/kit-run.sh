#!/usr/bin/env bash
# Runs the GPU kit (bench/device/README.md) where kit-pack.sh's parts arrived; needs only bash, xz and tar.
#   bash bench/device/kit-run.sh a .devkit/a         unpack part a (Chromium) into $KIT, print the machine
#   bash bench/device/kit-run.sh b .devkit/b [PLAN]  unpack part b (libraries, Node, ffmpeg, the kit), run PLAN
#   bash bench/device/kit-run.sh all .devkit [PLAN]  both (a CPU machine, from an empty folder)
#   bash bench/device/kit-run.sh measure [PLAN]      PLAN again on what $KIT holds (a rerun)
# PLAN: gpu (default: the issue's table on a GPU, SwiftShader as the baseline) or cpu (a short
# check of every step on SwiftShader). Results (JSON lines, logs, the kept outputs for the SSIM
# check) go to $OUT (the device tool's folder; default ./kit-out).
set -uo pipefail
KIT=${KIT:-/tmp/rfkit}
OUT=${OUT:-$PWD/kit-out}
mkdir -p "$KIT/cr" "$OUT"
say() { echo "== $*"; }

unpack_a() {
  say "unpack a from $1 into $KIT ($(du -sh "$1" | cut -f1))"
  local t0=$SECONDS
  xz -dc "$1/chromium.xz" > "$KIT/cr/chromium" && chmod +x "$KIT/cr/chromium"
  echo "unpacked in $((SECONDS - t0)) s"
  # the NVIDIA Vulkan driver gives no vkCreateInstance without these (bench/device/README.md)
  if ls "$1"/gl/*.deb >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && [ "${KIT_NO_GL:-}" != 1 ]; then
    for f in "$1"/gl/*.deb; do dpkg -x "$f" /; done; ldconfig; echo "GL dispatch libraries installed: $(ls "$1"/gl | tr '\n' ' ')"
  fi
  say machine
  grep PRETTY_NAME /etc/os-release; echo "cpus: $(nproc)"; free -g | head -2
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1 | head -3
  ls /usr/local/nvidia/share/vulkan/icd.d /usr/share/vulkan/icd.d /etc/vulkan/icd.d 2>/dev/null
  for t in node ffmpeg chromium python3; do printf '%s: %s\n' "$t" "$(command -v $t || echo none)"; done
}

unpack_b() {
  say "unpack b from $1 into $KIT ($(du -sh "$1" | cut -f1))"
  local t0=$SECONDS
  mkdir -p "$KIT/bin" "$KIT/kit"
  xz -dc "$1/node.xz" > "$KIT/bin/node" && xz -dc "$1/ffmpeg.xz" > "$KIT/bin/ffmpeg" && chmod +x "$KIT/bin/node" "$KIT/bin/ffmpeg"
  xz -dc "$1/kit.tar.xz" | tar xf - -C "$KIT/kit"
  xz -dc "$1/libs.tar.xz" | tar xf - -C "$KIT/cr"
  # the packaged fonts.conf names /tmp/fonts
  mkdir -p /tmp/fonts && cp -r "$KIT/cr/fonts/fonts/." /tmp/fonts/
  echo "unpacked in $((SECONDS - t0)) s; kit of commit $(cat "$KIT/kit/COMMIT")"
}

# one step: kit.mjs with the given flags, JSON lines to $OUT/NAME.jsonl, stderr to $OUT/NAME.log
step() {
  local name=$1 limit=$2; shift 2
  say "$name ($*)"
  local t0=$SECONDS
  timeout -k 5 "$limit" "$KIT/bin/node" "$KIT/kit/kit.mjs" --chromium "$KIT/cr/chromium" --ffmpeg "$KIT/bin/ffmpeg" \
    --stage "$KIT/kit/stage.json" --out "$OUT/files" --label "$name" "$@" > "$OUT/$name.jsonl" 2> "$OUT/$name.log"
  local rc=$?
  grep -v '"log"' "$OUT/$name.jsonl"
  grep '"log"' "$OUT/$name.jsonl" | grep -iE 'gpu|fall|fail|swiftshader|vulkan' | head -5
  [ $rc = 0 ] || { echo "step $name: exit $rc after $((SECONDS - t0)) s"; tail -5 "$OUT/$name.log"; }
  echo "($((SECONDS - t0)) s)"
}

# Which Vulkan driver list gives ANGLE the GPU: the product's own (gpu-probe.ts), then each vendor
# manifest alone, with and without SwiftShader's; the first that does is exported for the
# measurements (VK_DRIVER_FILES set by an operator wins in gpu-probe.ts). Chromium's own stderr
# (VK_LOADER_DEBUG) for the product's list, which the engine does not show.
probe_vulkan() {
  local ss="$KIT/cr/vk_swiftshader_icd.json" found=''
  say "Vulkan manifests and libraries"
  for f in /usr/local/nvidia/share/vulkan/icd.d/*.json /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json; do
    [ -f "$f" ] && echo "$f: $(tr -d ' \n' < "$f" | head -c 300)"
  done
  ls /dev/nvidia* 2>&1 | tr '\n' ' '; echo
  ldconfig -p | grep -E 'GLX_nvidia|GLdispatch|libvulkan|libnvidia-glvkspirv' | head -8
  local page='data:text/html,<canvas id=c></canvas><script>var g=document.getElementById("c").getContext("webgl2");var e=g&&g.getExtension("WEBGL_debug_renderer_info");document.body.append("RENDERER="+(e?g.getParameter(e.UNMASKED_RENDERER_WEBGL):"none"))</script>'
  say "Chromium alone, the product's driver list, VK_LOADER_DEBUG=error,warn"
  local nv; nv=$(ls /usr/local/nvidia/share/vulkan/icd.d/*.json /usr/share/vulkan/icd.d/nvidia*.json 2>/dev/null | tr '\n' ':')
  VK_LOADER_DEBUG=error,warn VK_DRIVER_FILES="${nv}$ss" LD_LIBRARY_PATH="$KIT/cr:$LD_LIBRARY_PATH" timeout 30 "$KIT/cr/chromium" --headless --no-sandbox \
    --use-gl=angle --use-angle=vulkan --disable-angle-features=supportsSurfacelessQueryExtension --ignore-gpu-blocklist \
    --enable-logging=stderr --user-data-dir=/tmp/rfkit-probe --dump-dom "$page" > /tmp/rfkit-dom.txt 2> /tmp/rfkit-err.txt
  grep -o 'RENDERER=[^<]*' /tmp/rfkit-dom.txt
  grep -iE 'vulkan|icd|loader|gpu|angle' /tmp/rfkit-err.txt | cut -c1-300 | sort | uniq -c | sort -rn | head -15
  cp /tmp/rfkit-err.txt "$OUT/chromium-vulkan.log" 2>/dev/null
  for cand in product /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json:$ss /usr/share/vulkan/icd.d/nvidia_icd.json:$ss \
    /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
    local r
    if [ "$cand" = product ]; then
      r=$(timeout 60 "$KIT/bin/node" "$KIT/kit/kit.mjs" --chromium "$KIT/cr/chromium" --ffmpeg "$KIT/bin/ffmpeg" --stage "$KIT/kit/stage.json" --out "$OUT/files" --gl gpu --cases '' --label probe 2>&1)
    else
      r=$(VK_DRIVER_FILES="$cand" timeout 60 "$KIT/bin/node" "$KIT/kit/kit.mjs" --chromium "$KIT/cr/chromium" --ffmpeg "$KIT/bin/ffmpeg" --stage "$KIT/kit/stage.json" --out "$OUT/files" --gl gpu --cases '' --label probe 2>&1)
    fi
    echo "$cand -> $(echo "$r" | grep -o '"renderer":"[^"]*"' | head -1) $(echo "$r" | grep -o 'failed ([^)]*' | head -1)"
    if echo "$r" | grep -q '"renderer":"ANGLE (NVIDIA'; then found=$cand; break; fi
  done
  if [ -n "$found" ] && [ "$found" != product ]; then export VK_DRIVER_FILES="$found"; echo "measuring with VK_DRIVER_FILES=$found"; fi
  [ -z "$found" ] && echo "no driver list gave the GPU"
}

measure() {
  if [ ! -x "$KIT/cr/chromium" ] || [ ! -x "$KIT/bin/node" ]; then
    echo "kit-run: $KIT lacks Chromium or Node: run part a and part b on the same warm machine" >&2
    exit 1
  fi
  export LD_LIBRARY_PATH="$KIT/cr/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export FONTCONFIG_PATH="$KIT/cr/fonts"
  "$KIT/bin/node" --version
  local main='sprite-512-cinematic,video-720p-cinematic,video-1080p-cinematic'
  if [ "${1:-gpu}" = cpu ]; then
    step cpu-swiftshader 300 --gl swiftshader --cases "$main" --frames 12 --keep
    step cpu-canvas 200 --gl swiftshader --cases video-720p-cinematic --frames 12 --video-frames canvas
    step cpu-conc 200 --gl swiftshader --cases '' --frames 6 --concurrency 1,2 --concurrency-case video-720p-fast
    collect
    return
  fi
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,clocks.sm --format=csv,noheader -lms 500 > "$OUT/nvidia-smi.csv" 2>&1 &
    SMI=$!
  fi
  probe_vulkan
  # the issue's table: --gl auto must pick the GPU and say so; the whole turn, outputs kept for SSIM
  step gpu-auto 120 --gl auto --cases "$main" --keep
  # the other way a frame reaches the encoder, on the same GPU
  step gpu-canvas 60 --gl gpu --cases video-720p-cinematic,video-1080p-cinematic --video-frames canvas
  # renders per GPU until frames/s stops rising
  step gpu-conc 150 --gl gpu --cases '' --concurrency 1,2,4,8,16 --concurrency-case video-720p-cinematic
  # the CPU baseline on the same machine (SwiftShader: this Chromium has no EGL), 24 frames a case
  step swiftshader 80 --gl swiftshader --cases "$main" --frames 24
  [ -n "${SMI:-}" ] && kill "$SMI" 2>/dev/null
  collect
}

# the device tool brings back at most 8 files: one archive of the figures and logs, and the
# outputs kept for the SSIM check
collect() {
  (cd "$OUT" && tar cJf results.tar.xz --remove-files ./*.jsonl ./*.log ./*.csv 2>/dev/null)
  find "$OUT/files" -maxdepth 1 -type f -exec mv {} "$OUT/" \; 2>/dev/null
  rm -rf "$OUT/files"
  ls -la "$OUT"
}

case "${1:-}" in
  a) unpack_a "$2" ;;
  b) unpack_b "$2"; measure "${3:-gpu}" ;;
  all) unpack_a "$2/a"; unpack_b "$2/b"; measure "${3:-gpu}" ;;
  measure) measure "${2:-gpu}" ;;
  *) sed -n '2,9p' "$0"; exit 2 ;;
esac
