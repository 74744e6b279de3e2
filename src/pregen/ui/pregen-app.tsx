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

function visibleItems(items: ItemView[], finished: boolean): { shown: ItemView[]; hidden: number } {
  if (finished) {
    // at the end: everything that was rendered or failed, oldest first, capped
    const ended = items.filter((i) => i.status === 'done' || i.status === 'failed');
    const shown = ended.slice(-RECENT * 2);
    return { shown, hidden: items.length - shown.length };
  }
  const active = items.filter((i) => i.status === 'rendering' || i.status === 'encoding' || i.status === 'saving');
  const ended = items.filter((i) => i.status === 'done' || i.status === 'failed' || i.status === 'cancelled').slice(-RECENT);
  const queued = items.filter((i) => i.status === 'queued').slice(0, 3);
  const shown = [...ended, ...active, ...queued].sort((a, b) => a.index - b.index);
  return { shown, hidden: items.length - shown.length };
}

export function PregenApp({ store }: { store: ProgressStore }) {
  const view = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { shown, hidden } = visibleItems(view.items, view.finished);
  const labelWidth = Math.min(24, Math.max(8, ...shown.map((i) => i.label.length)));
  return (
    <Box flexDirection="column">
      <Overall view={view} />
      {view.notices.map((n, i) => (
        <Text key={i} color="yellow">{n}</Text>
      ))}
      <Box flexDirection="column" marginTop={1}>
        {shown.map((item) => (
          <ItemLine key={item.index} item={item} labelWidth={labelWidth} />
        ))}
        {hidden > 0 && <Text color="gray">{`… ${hidden} more (${view.counts.queued} queued)`}</Text>}
      </Box>
      {view.finished && <Failures view={view} />}
    </Box>
  );
}
