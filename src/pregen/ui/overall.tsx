/** The header: overall bar, counts, frames/s, elapsed and ETA. */
import { Box, Text } from 'ink';
import { bar, formatDuration } from '../format.js';
import type { RunView } from '../progress.js';

export function Overall({ view }: { view: RunView }) {
  const fraction = view.framesTotal > 0 ? view.framesDone / view.framesTotal : view.finished ? 1 : 0;
  const c = view.counts;
  const eta = view.finished ? '' : view.etaSeconds === null ? '  ETA --' : `  ETA ${formatDuration(view.etaSeconds * 1000)}`;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>pregen </Text>
        <Text color="cyan">{bar(fraction, 30)}</Text>
        <Text>{` ${view.finishedCount}/${view.toRender} items  ${Math.floor(fraction * 100)}%`}</Text>
      </Text>
      <Text color="gray">
        {`${c.done} done, ${c.failed} failed, ${c.cached + c.duplicate} already there, ${c.queued} queued  |  ` +
          `${view.fps.toFixed(1)} frames/s  |  ${formatDuration(view.elapsedMs)} elapsed${eta}`}
      </Text>
    </Box>
  );
}
