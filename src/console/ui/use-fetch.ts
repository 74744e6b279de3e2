/** Loading one GET of the console API into a page, with a reload for after actions and live events. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { apiCall, type ApiError } from './http.js';

/** A GET's state: the data once loaded, the error if it failed, and `reload()`. */
export interface Fetched<T> {
  data: T | null;
  error: ApiError | Error | null;
  loading: boolean;
  reload: () => void;
}

/** GETs `path` (null: nothing yet) and again whenever `path` changes or `reload()` is called. */
export function useFetch<T>(path: string | null): Fetched<T> {
  const [state, setState] = useState<{ data: T | null; error: Error | null; loading: boolean }>({
    data: null,
    error: null,
    loading: path !== null,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    apiCall<T>('GET', path).then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: Error) => live && setState((s) => ({ data: s.data, error, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
