/**
 * The pregen TTY UI: overall progress, the items being rendered, the latest finished ones,
 * how many wait, and a failures summary when the run ends. Reads a ProgressStore.
 */
import { Box, Text } from 'ink';
import { useSyncExternalStore } from 'react';
import type { ItemView, ProgressStore } from '../progress.js';
import { Failures } from './failures.js';
import { ItemLine } from './item-line.js';
import { Overall } from './overall.js';

/** How many finished items stay on screen (a long run would otherwise scroll away). */
const RECENT = 6;

function visibleItems(items: ItemView[], finished: boolean): { shown: ItemView[]; hidden: ItemView[] } {
  if (finished) {
    // at the end: everything that was rendered or failed, oldest first, capped; items already
    // there (cached, duplicate) are no part of that list: the header counts them
    const ended = items.filter((i) => i.status === 'done' || i.status === 'failed');
    const shown = ended.slice(-RECENT * 2);
    return { shown, hidden: ended.slice(0, ended.length - shown.length) };
  }
  const active = items.filter((i) => i.status === 'rendering' || i.status === 'encoding' || i.status === 'saving');
  const ended = items
    .filter((i) => i.status === 'done' || i.status === 'failed' || i.status === 'cancelled')
    .slice(-RECENT);
  const queued = items.filter((i) => i.status === 'queued').slice(0, 3);
  const shown = [...ended, ...active, ...queued].sort((a, b) => a.index - b.index);
  const visible = new Set(shown);
  return { shown, hidden: items.filter((i) => !visible.has(i)) };
}

/** The line standing for the items not shown, saying what they are: `… 33 more (19 queued, 14 finished earlier)`. */
export function hiddenLine(hidden: ItemView[]): string | null {
  if (hidden.length === 0) return null;
  const queued = hidden.filter((i) => i.status === 'queued').length;
  const there = hidden.filter((i) => i.status === 'cached' || i.status === 'duplicate').length;
  const finished = hidden.length - queued - there;
  const parts = [
    queued ? `${queued} queued` : '',
    finished ? `${finished} finished earlier` : '',
    there ? `${there} already there` : '',
  ].filter(Boolean);
  return `… ${hidden.length} more (${parts.join(', ')})`;
}

export function PregenApp({ store }: { store: ProgressStore }) {
  const view = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { shown, hidden } = visibleItems(view.items, view.finished);
  const labelWidth = Math.min(24, Math.max(8, ...shown.map((i) => i.label.length)));
  return (
    <Box flexDirection="column">
      <Overall view={view} />
      {view.notices.map((n, i) => (
        <Text key={i} color="yellow">
          {n}
        </Text>
      ))}
      <Box flexDirection="column" marginTop={1}>
        {shown.map((item) => (
          <ItemLine key={item.index} item={item} labelWidth={labelWidth} />
        ))}
        {hiddenLine(hidden) && <Text color="gray">{hiddenLine(hidden)}</Text>}
      </Box>
      {view.finished && <Failures view={view} />}
    </Box>
  );
}
