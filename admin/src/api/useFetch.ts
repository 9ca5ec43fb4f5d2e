import { useCallback, useEffect, useRef, useState } from 'react';
import { HttpError } from 'react-admin';
import { requestJson, type RequestOptions } from './http';

export interface FetchState<T> {
  data: T | undefined;
  error: HttpError | undefined;
  loading: boolean;
  /** asks again (after a change the screen made itself) */
  reload: () => void;
}

/**
 * A GET of one of the API's own calls (flows, balance, access of a role…) for a screen: asked
 * again whenever `url` or `key` changes (pass what the answer depends on, e.g. the row's
 * version), or on `reload()`. A null url asks nothing.
 */
export function useFetch<T>(url: string | null, key?: unknown, opts: RequestOptions = {}): FetchState<T> {
  const [state, setState] = useState<{ data?: T; error?: HttpError; loading: boolean }>({ loading: !!url });
  const [tick, setTick] = useState(0);
  const optsRef = useRef(opts);
  optsRef.current = opts;

  useEffect(() => {
    if (!url) {
      setState({ loading: false });
      return undefined;
    }
    const ctrl = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    requestJson<T>(url, { ...optsRef.current, signal: ctrl.signal })
      .then((data) => {
        if (!ctrl.signal.aborted) setState({ data, loading: false });
      })
      .catch((error: unknown) => {
        if (ctrl.signal.aborted) return;
        setState({ error: error instanceof HttpError ? error : new HttpError(String(error), 0), loading: false });
      });
    return () => ctrl.abort();
  }, [url, key, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** The text to notify for a failed call: the API's "message (code)", or a caption key. */
export function errorMessage(err: unknown): string {
  return err instanceof Error && err.message ? err.message : 'ra.notification.http_error';
}
