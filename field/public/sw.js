/**
 * The field app's service worker (docs/field-app.md, docs/decisions/0071): keeps the app's shell —
 * index.html and the hashed files it loads, the manifest and the icons — so the app opens with no
 * network. Pages: the network first (a new version shows as soon as it is online), the kept copy
 * when it fails. Hashed assets: the kept copy first (they never change). The API is never kept
 * here: drafts, photos and reference data are the app's own, in IndexedDB.
 *
 * Background Sync (Chromium; docs/decisions/0086): the page registers the tag SYNC_TAG when a
 * record is queued; on `sync` the worker wakes an open page of the app to send the queue and waits
 * for its answer — records still waiting make the event fail, so the browser tries again later.
 * With no page open the queue waits for the next opening: the session's token is the page's.
 */
const CACHE = 'ecofond-field-2';
const SYNC_TAG = 'ecofond-field-queue';
/** how long the worker waits for a page's run of the queue (the browser ends a sync event after minutes) */
const SYNC_WAIT_MS = 120_000;
const SHELL = ['./', './manifest.webmanifest', './icon.svg', './icon-192.png', './icon-512.png'];
const scope = () => new URL(self.registration.scope);

/** The files index.html loads: its scripts, styles and module preloads. */
function assetsOf(html) {
  return [...html.matchAll(/(?:src|href)="([^"]+\/assets\/[^"]+)"/g)].map((m) => new URL(m[1], scope()).href);
}

/** Keeps index.html and its assets; drops assets of an older build. */
async function keepShell(cache, res) {
  const html = await res.clone().text();
  const wanted = assetsOf(html);
  await cache.put(new URL('./', scope()).href, res);
  await Promise.all(wanted.map(async (u) => (await cache.match(u)) ?? cache.add(u)));
  for (const req of await cache.keys()) if (req.url.includes('/assets/') && !wanted.includes(req.url)) await cache.delete(req);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(SHELL.slice(1).map((p) => new URL(p, scope()).href));
      await keepShell(cache, await fetch(new URL('./', scope()).href, { cache: 'no-cache' }));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== scope().origin || !url.pathname.startsWith(scope().pathname)) return;
  if (req.mode === 'navigate') {
    event.respondWith(
      (async () => {
        const cache = await caches.open(CACHE);
        try {
          const res = await fetch(req, { cache: 'no-cache' });
          if (res.ok) event.waitUntil(keepShell(cache, res.clone()).catch(() => undefined));
          return res;
        } catch (err) {
          const kept = await cache.match(new URL('./', scope()).href);
          if (kept) return kept;
          throw err;
        }
      })(),
    );
    return;
  }
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const kept = await cache.match(req, { ignoreSearch: true });
      if (kept) return kept;
      const res = await fetch(req);
      if (res.ok && url.pathname.includes('/assets/')) event.waitUntil(cache.put(req, res.clone()));
      return res;
    })(),
  );
});

/** Asks one page to send the queue; answers how many records still wait. */
function sendFrom(client) {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error('the page did not answer')), SYNC_WAIT_MS);
    channel.port1.onmessage = (e) => {
      clearTimeout(timer);
      resolve(Number(e.data?.left ?? 0));
    };
    client.postMessage({ type: SYNC_TAG }, [channel.port2]);
  });
}

self.addEventListener('sync', (event) => {
  if (event.tag !== SYNC_TAG) return;
  event.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: 'window' });
      // no page open: the next opening sends (the worker holds no session to send with)
      if (!pages.length) return;
      const page = pages.find((c) => c.focused) ?? pages.find((c) => c.visibilityState === 'visible') ?? pages[0];
      const left = await sendFrom(page);
      if (left > 0) throw new Error(`${left} records still wait`);
    })(),
  );
});
