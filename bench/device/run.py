#!/usr/bin/env python3
"""Device benchmark driver (no Node needed): serves the folder made by dump-stage.ts on loopback,
starts Chromium once per GL mode with the project's flags (src/render/chromium-args.ts) but the
mode's GL flags, and prints the figures the page POSTs back (bench.js).
usage: run.py STAGE_DIR CHROMIUM OUT_DIR MODE[:frames[:only]] ...   (MODE is a key of MODES)"""
import http.server, json, os, subprocess, sys, tempfile, threading, time

MODES = {
    'swiftshader': ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    'vulkan': ['--use-gl=angle', '--use-angle=vulkan'],
    'vulkan-feat': ['--use-gl=angle', '--use-angle=vulkan', '--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan'],
    'gl-egl': ['--use-gl=angle', '--use-angle=gl-egl'],
    'egl': ['--use-gl=egl'],
    # ANGLE's headless Vulkan display needs VK_EXT_headless_surface, which the NVIDIA ICD lacks: run.sh adds
    # the SwiftShader ICD to the loader for it; these keep ANGLE from surface queries the NVIDIA driver cannot answer
    'vk-nosq': ['--use-gl=angle', '--use-angle=vulkan', '--disable-angle-features=supportsSurfacelessQueryExtension'],
    'vk-nosq2': ['--use-gl=angle', '--use-angle=vulkan', '--disable-angle-features=supportsSurfacelessQueryExtension,supportsSurfaceCapabilities2Extension,supportsSurfaceProtectedCapabilitiesExtension,supportsSurfaceMaintenance1'],
}
COMMON = ['--no-sandbox', '--disable-setuid-sandbox', '--disable-background-networking', '--disable-component-update',
          '--disable-sync', '--disable-quic', '--no-first-run', '--no-default-browser-check', '--disable-domain-reliability',
          '--disable-client-side-phishing-detection', '--metrics-recording-only', '--disable-breakpad',
          '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows',
          '--disable-dev-shm-usage', '--proxy-server=http://127.0.0.1:9',
          '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1', '--mute-audio', '--hide-scrollbars',
          '--ignore-gpu-blocklist', '--enable-logging=stderr', '--headless']

stage, chromium, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(outdir, exist_ok=True)
result = {}
done = threading.Event()

class H(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=stage, **k)
    def do_POST(self):
        body = self.rfile.read(int(self.headers['Content-Length']))
        result['r'] = json.loads(body)
        self.send_response(204); self.end_headers()
        done.set()
    def log_message(self, *a):
        pass

srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
threading.Thread(target=srv.serve_forever, daemon=True).start()
port = srv.server_address[1]
summary = []
for spec in sys.argv[4:]:
    parts = spec.split(':')
    mode, frames, only, limit = [a or b for a, b in zip(parts + [''] * 4, ['', '60', '', '240'])]
    result.clear(); done.clear()
    udd = tempfile.mkdtemp(prefix='udd-')
    url = f'http://127.0.0.1:{port}/stage.html?frames={frames}&only={only}'
    log = open(os.path.join(outdir, f'chrome-{mode}.log'), 'w')
    t0 = time.time()
    p = subprocess.Popen([chromium, f'--user-data-dir={udd}', *COMMON, *MODES[mode], url], stdout=log, stderr=subprocess.STDOUT)
    ok = done.wait(float(limit))
    wall = time.time() - t0
    p.kill(); p.wait(); log.close()
    r = result.get('r') if ok else {'ok': False, 'error': f'no result in {limit} s (chromium rc {p.returncode})'}
    r['mode'] = mode; r['wall_s'] = round(wall, 1)
    print(json.dumps(r), flush=True)
    summary.append(r)
    if not r.get('ok'):
        tail = open(os.path.join(outdir, f'chrome-{mode}.log'), errors='replace').read().splitlines()
        print('\n'.join([l[:300] for l in tail if 'ERROR' in l or 'WARNING' in l or 'FATAL' in l][-15:]), flush=True)
json.dump(summary, open(os.path.join(outdir, 'summary.json'), 'w'), indent=1)
print('\n== summary')
for r in summary:
    if r.get('ok'):
        print(f"{r['mode']:12} {r['info']['renderer']}")
        for x in r['rows']:
            print(f"   {x['case']:22} {x['size']:10} pure {x['pure_ms']:8.2f} ms ({x['pure_fps'] or 0:7.1f} fps)  +readback {x['readback_ms']:8.2f} ms ({x['readback_fps'] or 0:7.1f} fps)  frames {x['frames']} load {x['load_ms']} ms tris {x['triangles']}")
    else:
        print(f"{r['mode']:12} FAILED: {r.get('error','')[:300]}")
