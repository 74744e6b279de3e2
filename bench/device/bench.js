// In-page timing loop for bench/device/run.py: for each case, load, one finished warm-up frame,
// then N frames back to back ended by a 1-pixel readPixels (as bench/render.ts's "pure" case),
// plus a second pass reading every frame back (readPixels of the whole frame, like a capture).
(async () => {
  const q = new URLSearchParams(location.search);
  const frames = Number(q.get('frames') || 60);
  const only = q.get('only');
  const post = (o) => fetch('/result', { method: 'POST', body: JSON.stringify(o) });
  try {
    while (!window.renderStage) await new Promise((r) => setTimeout(r, 10));
    const { build, cases } = await (await fetch('./cases.json')).json();
    const rs = window.renderStage;
    const info = rs.glInfo();
    const rows = [];
    for (const c of cases) {
      if (only && !only.split(',').includes(c.name)) continue;
      const o = c.options;
      const tl = performance.now();
      const st = await rs.load(build, o);
      const loadMs = performance.now() - tl;
      const cv = rs.canvas(), gl = cv.getContext('webgl2');
      const px = new Uint8Array(4);
      rs.renderFrame(0);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      const n = Math.min(frames, o.frames);
      let t0 = performance.now();
      for (let i = 0; i < n; i++) rs.renderFrame(i);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      const pure = (performance.now() - t0) / n;
      // every frame read back whole (what a capture must at least do)
      const buf = new Uint8Array(cv.width * cv.height * 4);
      const m = Math.min(n, 30);
      t0 = performance.now();
      for (let i = 0; i < m; i++) { rs.renderFrame(i); gl.readPixels(0, 0, cv.width, cv.height, gl.RGBA, gl.UNSIGNED_BYTE, buf); }
      const readback = (performance.now() - t0) / m;
      let sum = 0; for (let i = 0; i < buf.length; i += 4097) sum += buf[i];
      rows.push({ case: c.name, size: `${cv.width}x${cv.height}`, frames: n, pure_ms: +pure.toFixed(2), pure_fps: +(1000 / pure).toFixed(1), readback_ms: +readback.toFixed(2), readback_fps: +(1000 / readback).toFixed(1), load_ms: Math.round(loadMs), triangles: st.triangles, checksum: sum });
      rs.dispose();
    }
    await post({ ok: true, info, ua: navigator.userAgent, cores: navigator.hardwareConcurrency, rows });
  } catch (e) {
    await post({ ok: false, error: String(e && e.stack || e) });
  }
})();
