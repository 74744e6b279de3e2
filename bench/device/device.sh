set +e
C=/tmp/cr; mkdir -p $C $C/stage; xz -dc .devcarry/chromium.xz > $C/chromium; chmod +x $C/chromium
tar xJf .devcarry/libs.tar.xz -C $C; tar xJf .devcarry/stage.tar.xz -C $C/stage
export LD_LIBRARY_PATH=$C/lib; ln -sf lib/libvulkan.so.1 $C/libvulkan.so.1
NV=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
G=(); while [ "$1" != "--" ] && [ -n "$1" ]; do G+=("$1"); shift; done; shift
echo "== GPU: NV + swiftshader ICD"; VK_LOADER_DEBUG=error VK_DRIVER_FILES=$NV:$C/vk_swiftshader_icd.json python3 .devcarry/run.py $C/stage $C/chromium $OUT/g "${G[@]}" | sed -n '/== summary/,$p'
echo "== CPU"; python3 .devcarry/run.py $C/stage $C/chromium $OUT/c "$@" | sed -n '/== summary/,$p'
nvidia-smi --query-gpu=clocks.sm,utilization.gpu,memory.used --format=csv,noheader
