/**
 * The `render-farm top` screen (ink): refreshes about once a second from a TopSource; q quits,
 * up/down select a job, enter opens (and closes) its detail, escape closes it. A failed
 * refresh keeps the last screen and says so in the header, then tries again.
 */
import { Box, Text, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { FarmSnapshot } from '../farm-snapshot.js';
import { detailLines, headerLine, jobLines, JOBS_HEADER, queueLines, workerLines } from '../format.js';
import type { JobDetail } from '../job-detail.js';

export interface TopSource {
  snapshot(): Promise<FarmSnapshot>;
  detail(jobId: string): Promise<JobDetail | null>;
}

const COLORS: Record<string, string> = { processing: 'cyan', queued: 'yellow', completed: 'green', error: 'red' };

export function TopApp({
  source,
  intervalMs = 1_000,
  onQuit,
}: {
  source: TopSource;
  intervalMs?: number;
  onQuit: () => void;
}) {
  const [snap, setSnap] = useState<FarmSnapshot | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [detail, setDetail] = useState<JobDetail | null>(null);
  // Keys can arrive faster than the screen renders (down then enter in one read), so the key
  // handler and the async detail reads use the selection as it is now, kept in refs, not the
  // selection of the last render.
  const selectedRef = useRef<string | null>(null);
  const openRef = useRef<string | null>(null);
  selectedRef.current = selectedId;
  openRef.current = open ? selectedId : null;

  useEffect(() => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = async () => {
      try {
        const s = await source.snapshot();
        const jobId = openRef.current;
        const d = jobId ? await source.detail(jobId) : null;
        if (stopped) return;
        setSnap(s);
        if (jobId && openRef.current === jobId) setDetail(d);
        setProblem(null);
      } catch (err) {
        if (!stopped) setProblem(`refresh failed: ${(err as Error).message.split('\n')[0]}; retrying`);
      }
      if (!stopped) timer = setTimeout(tick, intervalMs);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [source, intervalMs]);

  const lines = snap ? jobLines(snap) : [];
  const indexOf = (jobId: string | null) =>
    Math.max(
      0,
      lines.findIndex((l) => l.jobId === jobId),
    );
  const index = indexOf(selectedId);
  const select = (jobId: string, opened: boolean) => {
    selectedRef.current = jobId;
    openRef.current = opened ? jobId : null;
    setSelectedId(jobId);
    setOpen(opened);
    setDetail(null);
  };

  useInput((input, key) => {
    if (input === 'q') return onQuit();
    if (key.escape) {
      openRef.current = null;
      return setOpen(false);
    }
    if (!lines.length) return;
    const current = lines[indexOf(selectedRef.current)]!;
    if (key.upArrow || key.downArrow) {
      const next = Math.min(lines.length - 1, Math.max(0, indexOf(selectedRef.current) + (key.upArrow ? -1 : 1)));
      select(lines[next]!.jobId, false);
    }
    if (key.return) {
      if (openRef.current) {
        openRef.current = null;
        return setOpen(false);
      }
      const jobId = current.jobId;
      select(jobId, true);
      void source.detail(jobId).then(
        (d) => {
          if (openRef.current === jobId) setDetail(d);
        },
        () => {},
      );
    }
  });

  if (!snap) return <Text>{problem ?? 'render-farm top: reading the farm…'}</Text>;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {headerLine(snap)}
      </Text>
      {problem && <Text color="red">{problem}</Text>}
      <Box flexDirection="column" marginTop={1}>
        {workerLines(snap).map((l, i) => (
          <Text key={i} bold={i === 0} wrap="truncate-end">
            {l}
          </Text>
        ))}
      </Box>
      <Box flexDirection="column" marginTop={1}>
        {queueLines(snap).map((l, i) => (
          <Text key={i} wrap="truncate-end">
            {l}
          </Text>
        ))}
      </Box>
      <Box flexDirection="column" marginTop={1}>
        <Text bold>JOBS</Text>
        {lines.length ? (
          <Text color="gray" wrap="truncate-end">{`  ${JOBS_HEADER}`}</Text>
        ) : (
          <Text color="gray"> none in the last 24 hours</Text>
        )}
        {lines.map((l, i) => (
          <Text key={l.jobId} color={COLORS[l.status]} inverse={i === index} wrap="truncate-end">
            {`${i === index ? '>' : ' '} ${l.text}`}
          </Text>
        ))}
      </Box>
      {open && (
        <Box flexDirection="column" marginTop={1} borderStyle="round" paddingX={1}>
          {detail ? (
            detailLines(detail).map((l, i) => <Text key={i}>{l}</Text>)
          ) : (
            <Text>loading {lines[index]?.jobId}…</Text>
          )}
        </Box>
      )}
      <Text color="gray">q quit ↑/↓ select a job enter details esc close</Text>
    </Box>
  );
}
