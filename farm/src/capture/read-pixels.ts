/**
 * Reads of the drawn frame into CPU memory, synchronous, right after renderFrame (a canvas
 * without preserveDrawingBuffer is cleared once the page yields). Each leaves three.js's GL
 * state as it was.
 */

/** Our renderbuffer the canvas is blitted into upside down, kept while the size holds. */
const flip: { fb: WebGLFramebuffer | null; rb: WebGLRenderbuffer | null; w: number; h: number } = {
  fb: null,
  rb: null,
  w: 0,
  h: 0,
};

/**
 * The drawn frame's RGBA top-down into into[offset..], rows rowLength pixels apart (a frame of
 * a sheet row, or a whole frame): the canvas is blitted upside down into a renderbuffer of ours
 * and read from there. A plain readPixels is cheap on the CPU; the reads it replaces
 * (VideoFrame(canvas), 2D drawImage) made Chromium's GPU process convert or copy the frame,
 * measured 55 ms CPU a 720p frame (docs/benchmarks.md, "Capture paths").
 */
export function readTopDown(gl: WebGL2RenderingContext, into: Uint8Array, offset: number, rowLength: number): void {
  const w = gl.drawingBufferWidth,
    h = gl.drawingBufferHeight;
  if (!flip.fb || flip.w !== w || flip.h !== h) {
    if (flip.fb) {
      gl.deleteFramebuffer(flip.fb);
      gl.deleteRenderbuffer(flip.rb);
    }
    const rbWas = gl.getParameter(gl.RENDERBUFFER_BINDING) as WebGLRenderbuffer | null;
    const fbWas = gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING) as WebGLFramebuffer | null;
    flip.rb = gl.createRenderbuffer();
    gl.bindRenderbuffer(gl.RENDERBUFFER, flip.rb);
    gl.renderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, w, h);
    flip.fb = gl.createFramebuffer();
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, flip.fb);
    gl.framebufferRenderbuffer(gl.DRAW_FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, flip.rb);
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, fbWas);
    gl.bindRenderbuffer(gl.RENDERBUFFER, rbWas);
    flip.w = w;
    flip.h = h;
  }
  const readWas = gl.getParameter(gl.READ_FRAMEBUFFER_BINDING) as WebGLFramebuffer | null;
  const drawWas = gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING) as WebGLFramebuffer | null;
  const pbo = gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING) as WebGLBuffer | null;
  const scissor = gl.isEnabled(gl.SCISSOR_TEST);
  const rowWas = gl.getParameter(gl.PACK_ROW_LENGTH) as number;
  if (scissor) gl.disable(gl.SCISSOR_TEST);
  if (pbo) gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, flip.fb);
  gl.blitFramebuffer(0, 0, w, h, 0, h, w, 0, gl.COLOR_BUFFER_BIT, gl.NEAREST);
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, flip.fb);
  gl.pixelStorei(gl.PACK_ROW_LENGTH, rowLength === w ? 0 : rowLength);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, into, offset);
  gl.pixelStorei(gl.PACK_ROW_LENGTH, rowWas);
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, readWas);
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, drawWas);
  if (pbo) gl.bindBuffer(gl.PIXEL_PACK_BUFFER, pbo);
  if (scissor) gl.enable(gl.SCISSOR_TEST);
}

/** The drawn frame's RGBA, rows bottom-up (the lossless hero still). */
export function readRaw(gl: WebGL2RenderingContext | WebGLRenderingContext): Uint8Array<ArrayBuffer> {
  const w = gl.drawingBufferWidth,
    h = gl.drawingBufferHeight;
  const pixels = new Uint8Array(w * h * 4);
  const gl2 = typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext ? gl : null;
  const target = gl2 ? gl2.READ_FRAMEBUFFER : gl.FRAMEBUFFER;
  const fb = gl.getParameter(gl2 ? gl2.READ_FRAMEBUFFER_BINDING : gl.FRAMEBUFFER_BINDING) as WebGLFramebuffer | null;
  const pbo = gl2 ? (gl2.getParameter(gl2.PIXEL_PACK_BUFFER_BINDING) as WebGLBuffer | null) : null;
  if (fb) gl.bindFramebuffer(target, null);
  if (gl2 && pbo) gl2.bindBuffer(gl2.PIXEL_PACK_BUFFER, null);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  if (fb) gl.bindFramebuffer(target, fb);
  if (gl2 && pbo) gl2.bindBuffer(gl2.PIXEL_PACK_BUFFER, pbo);
  return pixels;
}
