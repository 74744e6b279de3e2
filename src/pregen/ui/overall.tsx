/** The header: overall bar (items published, share of the work), counts, frames/s, elapsed and ETA. */
import { Box, Text } from 'ink';
import { bar, formatDuration } from '../format.js';
import { percent, type RunView } from '../progress.js';

export function Overall({ view }: { view: RunView }) {
  const c = view.counts;
  const eta = view.finished
    ? ''
    : view.etaSeconds === null
      ? '  ETA --'
      : `  ETA ${formatDuration(view.etaSeconds * 1000)}`;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>pregen </Text>
        <Text color="cyan">{bar(view.fraction, 30)}</Text>
        <Text>{` ${view.published}/${view.toRender} items  ${percent(view.fraction)}%`}</Text>
      </Text>
      <Text color="gray">
        {`${c.done} done, ${c.failed} failed, ${c.cached + c.duplicate} already there, ${c.queued} queued  |  ` +
          `${view.fps.toFixed(1)} frames/s  |  ${formatDuration(view.elapsedMs)} elapsed${eta}`}
      </Text>
    </Box>
  );
}
