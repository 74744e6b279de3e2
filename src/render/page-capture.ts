/**
 * The capture loop that runs inside the stage page. Measured on 2 CPU cores: rendering a frame,
 * then `canvas.toBlob` (the snapshot is taken at call time, the encode runs while the next
 * frame renders) and a binary `fetch` POST to the loopback stage server beat both base64
 * through page.evaluate (+15-35 ms a frame) and page screenshots. Up to `window` frames are in
 * flight; the server acknowledges a frame only once the encoder took it, which bounds memory.
 *
 * Kept as plain JavaScript source: functions passed to page.evaluate would be rewritten by
 * the TypeScript loader (helpers such as __name that do not exist in the page).
 */

/** Parameters of one capture run in the page. */
export interface PageCaptureRequest {
  /** the stage server route token frames are posted under */
  token: string;
  /** frame indices to render, in order */
  indices: number[];
  /** toBlob mime type: image/jpeg for video and sprites, image/png when alpha or a lossless still is needed */
  type: 'image/jpeg' | 'image/png' | 'image/webp';
  quality: number;
  /** frames captured but not yet acknowledged */
  window: number;
}

/** Installs `window.__rfCapture` and `window.__rfAbort` in the page (idempotent). */
export const PAGE_CAPTURE_SOURCE = `
(() => {
  if (window.__rfCapture) return;
  window.__rfAbort = null;
  window.__rfCapture = async (req) => {
    window.__rfAbort = null;
    const stage = window.renderStage;
    const canvas = stage.canvas();
    const inflight = new Set();
    let failure = null;
    for (const index of req.indices) {
      if (window.__rfAbort) throw new Error(window.__rfAbort);
      if (failure) throw failure;
      stage.renderFrame(index);
      const p = new Promise((resolve) => canvas.toBlob(resolve, req.type, req.quality))
        .then((blob) => {
          if (!blob) throw new Error('canvas.toBlob returned no image (canvas too large?)');
          return fetch('/frames/' + req.token + '/' + index, { method: 'POST', body: blob });
        })
        .then(async (res) => {
          if (!res.ok) throw new Error((await res.text()) || 'frame ' + index + ' refused: HTTP ' + res.status);
        })
        .catch((err) => { failure = failure || err; });
      inflight.add(p);
      p.finally(() => inflight.delete(p));
      while (inflight.size >= req.window) await Promise.race(inflight);
    }
    await Promise.all(inflight);
    if (failure) throw failure;
    return req.indices.length;
  };
})();
`;

/** The expression that runs one capture (JSON-serialised request). */
export function captureExpression(req: PageCaptureRequest): string {
  return `window.__rfCapture(${JSON.stringify(req)})`;
}

/** The expression that makes a running capture stop at its next frame. */
export function abortExpression(reason: string): string {
  return `window.__rfAbort = ${JSON.stringify(reason)}`;
}
