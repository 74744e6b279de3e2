/** @jsxImportSource preact */
/** The console's table shell: a row of column heads, the rows, and a muted row when there are none. */
import type { ComponentChildren } from 'preact';

/**
 * `head`: the column heads ('' for a column without one, e.g. a buttons column); `empty`: the
 * note to show across every column in place of rows (null while there are rows, or none yet).
 */
export function Table({
  class: className,
  head,
  empty,
  children,
}: {
  class?: string;
  head: readonly string[];
  empty?: string | null;
  children: ComponentChildren;
}) {
  return (
    <table class={className}>
      <thead>
        <tr>
          {head.map((h, i) => (
            <th key={i}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {empty ? (
          <tr>
            <td colSpan={head.length} class="muted">
              {empty}
            </td>
          </tr>
        ) : null}
        {children}
      </tbody>
    </table>
  );
}
