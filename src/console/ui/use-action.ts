/** A page's action (a POST the user asked for): busy while it runs, its failure kept for an ErrorNote. */
import { useState } from 'preact/hooks';

export interface Action {
  busy: boolean;
  /** the last run's failure; cleared when the next run starts */
  error: Error | null;
  run: (act: () => Promise<void>) => Promise<void>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const run = async (act: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await act();
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
