import { useSyncExternalStore } from 'react';

/**
 * Hash routing: `#/path?query#anchor`. The path picks the page; the query holds a page's filters
 * (replaced in place, no scrolling); the anchor is a section of the page to scroll to smoothly.
 */
export interface Location {
  path: string;
  query: URLSearchParams;
  anchor: string;
  raw: string;
}

export function parseHash(hash: string): Location {
  let h = hash.replace(/^#/, '');
  const a = h.indexOf('#');
  const anchor = a >= 0 ? decodeURIComponent(h.slice(a + 1)) : '';
  if (a >= 0) h = h.slice(0, a);
  const q = h.indexOf('?');
  const qs = q >= 0 ? h.slice(q + 1) : '';
  let path = q >= 0 ? h.slice(0, q) : h;
  if (!path.startsWith('/')) path = `/${path}`;
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '');
  return { path, query: new URLSearchParams(qs), anchor, raw: hash };
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
window.addEventListener('hashchange', notify);

function subscribe(l: () => void) {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}

export function useHash(): string {
  return useSyncExternalStore(subscribe, () => window.location.hash);
}

/** Goes to `to` (e.g. "/map" or "/tree/5"); replace: change the address in place (filters). */
export function navigate(to: string, { replace = false } = {}): void {
  const hash = `#${to}`;
  if (replace) {
    history.replaceState(history.state, '', hash);
    notify();
  } else {
    window.location.hash = hash;
  }
}

/** A route pattern such as "/tree/:id" against a path: its parameters, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

/** The href of a route. */
export const href = (path: string) => `#${path}`;

/** The query with some parameters changed (null removes one), as "?…" or "". */
export function withQuery(query: URLSearchParams, changes: Record<string, string | number | null>): string {
  const q = new URLSearchParams(query);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') q.delete(k);
    else q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
