/** The end-of-run summary: one line per failed item, and how to resume after an interrupt. */
import { Box, Text } from 'ink';
import type { RunView } from '../progress.js';

export function Failures({ view }: { view: RunView }) {
  const failed = view.items.filter((i) => i.status === 'failed');
  const cancelled = view.counts.cancelled;
  return (
    <Box flexDirection="column" marginTop={1}>
      {failed.length > 0 && <Text color="red" bold>{`${failed.length} failed:`}</Text>}
      {failed.map((i) => (
        <Text key={i.index} color="red">{`  #${i.index} ${i.label} (${i.variant}): ${i.reason ?? 'failed'}`}</Text>
      ))}
      {view.interrupted && (
        <Text color="yellow">{`interrupted: ${cancelled} item${cancelled === 1 ? '' : 's'} not rendered; run the same command again to resume`}</Text>
      )}
      {!view.interrupted && failed.length === 0 && <Text color="green">all done</Text>}
    </Box>
  );
}
