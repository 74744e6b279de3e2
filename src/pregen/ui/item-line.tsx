/** One pregen item: status, label, variant, and its progress, speed or reason. */
import { Box, Text } from 'ink';
import { bar, formatBytes, formatDuration } from '../format.js';
import type { ItemStatus, ItemView } from '../progress.js';

const COLOR: Record<ItemStatus, string> = {
  queued: 'gray',
  rendering: 'cyan',
  encoding: 'cyan',
  saving: 'cyan',
  done: 'green',
  cached: 'gray',
  duplicate: 'gray',
  failed: 'red',
  cancelled: 'yellow',
};

const MARK: Record<ItemStatus, string> = {
  queued: '·',
  rendering: '▸',
  encoding: '▸',
  saving: '▸',
  done: '✔',
  cached: '=',
  duplicate: '=',
  failed: '✘',
  cancelled: '-',
};

/** What follows the label: a bar while rendering, the result when done, the reason on failure. */
function detail(item: ItemView): string {
  switch (item.status) {
    case 'rendering':
      return `${bar(item.progress, 16)} ${Math.floor(item.progress * 100)}%${item.fps > 0 ? `  ${item.fps.toFixed(1)} frames/s` : ''}`;
    case 'encoding':
      return 'encoding';
    case 'saving':
      return 'saving';
    case 'done':
      return `${formatDuration(item.ms ?? 0)}  ${item.fps.toFixed(1)} frames/s  ${formatBytes(item.bytes ?? 0)}`;
    case 'failed':
      return item.reason ?? 'failed';
    case 'cached':
    case 'duplicate':
      return item.reason ?? '';
    default:
      return '';
  }
}

export function ItemLine({ item, labelWidth }: { item: ItemView; labelWidth: number }) {
  return (
    <Box>
      <Text color={COLOR[item.status]}>{`${MARK[item.status]} ${item.status.padEnd(9)} `}</Text>
      <Text>{`${item.label.padEnd(labelWidth)} `}</Text>
      <Text color="gray">{`${item.variant}  `}</Text>
      <Text color={item.status === 'failed' ? 'red' : undefined} wrap="truncate-end">
        {detail(item)}
      </Text>
    </Box>
  );
}
