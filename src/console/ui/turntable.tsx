/** @jsxImportSource preact */
/**
 * A sprite sheet shown as a turntable: one frame at a time through background-position, and a
 * drag (pointer events: mouse, pen, touch) turns it, as integrators' product pages do. The frame
 * shown is in data-frame. Styles are set through element.style (allowed by the CSP, unlike
 * style attributes in markup).
 */
import { useRef, useState } from 'preact/hooks';
import type { SpriteLayoutView } from '../console-api.js';

/** Pixels of drag per frame: a full turn of 72 frames over about 430 px. */
const PX_PER_FRAME = 6;
/** Widest the turntable is drawn; larger frames are scaled down with their sheet. */
const MAX_WIDTH = 480;

/** `url`: the sheet; `layout`: its geometry. */
export function Turntable({ url, layout }: { url: string; layout: SpriteLayoutView }) {
  const [frame, setFrame] = useState(0);
  const drag = useRef<{ x: number; frame: number } | null>(null);
  const scale = Math.min(1, MAX_WIDTH / layout.frame_width);
  const fw = layout.frame_width * scale;
  const fh = layout.frame_height * scale;
  const col = frame % layout.columns;
  const row = Math.floor(frame / layout.columns);
  const style = {
    width: `${fw}px`,
    height: `${fh}px`,
    backgroundImage: `url("${url}")`,
    backgroundSize: `${layout.columns * fw}px ${layout.rows * fh}px`,
    backgroundPosition: `${-col * fw}px ${-row * fh}px`,
  };
  const turnTo = (x: number) => {
    const d = drag.current;
    if (!d) return;
    const steps = Math.round((x - d.x) / PX_PER_FRAME);
    setFrame((((d.frame - steps) % layout.frames) + layout.frames) % layout.frames);
  };
  return (
    <div
      class="turntable"
      role="img"
      aria-label={`sprite turntable, frame ${frame + 1} of ${layout.frames}: drag to rotate`}
      data-frame={String(frame)}
      data-frames={String(layout.frames)}
      style={style}
      onPointerDown={(e) => {
        drag.current = { x: e.clientX, frame };
        e.currentTarget.setPointerCapture(e.pointerId);
        e.preventDefault();
      }}
      onPointerMove={(e) => turnTo(e.clientX)}
      onPointerUp={(e) => {
        turnTo(e.clientX);
        drag.current = null;
      }}
      onPointerCancel={() => (drag.current = null)}
      onKeyDown={(e) => {
        // the keyboard turns it too: a frame per arrow press
        if (e.key === 'ArrowLeft') setFrame((f) => (f + 1) % layout.frames);
        if (e.key === 'ArrowRight') setFrame((f) => (f - 1 + layout.frames) % layout.frames);
      }}
      tabIndex={0}
    />
  );
}
