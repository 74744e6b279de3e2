/** @jsxImportSource preact */
/**
 * A modal confirmation (the native <dialog>, so focus and Escape behave) before an action that
 * changes a job: retry and cancel ask first.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** Shown while `open`; `onConfirm`/`onCancel` close it (the caller clears `open`). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} class="confirm" onCancel={props.onCancel}>
      <h3>{props.title}</h3>
      <div class="confirm-body">{props.children}</div>
      <div class="confirm-actions">
        <button type="button" class="secondary" data-action="dismiss" onClick={props.onCancel}>
          Keep it
        </button>
        <button type="button" class="danger" data-action="confirm" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
