import { lazy, Suspense, useEffect, useState } from 'react';

/** The chat's button and panel: a chunk of their own, fetched once the page has loaded (docs/chat.md). */
const ChatWidget = lazy(() => import('./ChatWidget'));

/** Where the chat goes on every page; nothing of it is in the first load. */
export function ChatSlot() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const go = () => setReady(true);
    if (document.readyState === 'complete') {
      const t = setTimeout(go, 200);
      return () => clearTimeout(t);
    }
    window.addEventListener('load', go, { once: true });
    return () => window.removeEventListener('load', go);
  }, []);
  return ready ? (
    <Suspense fallback={null}>
      <ChatWidget />
    </Suspense>
  ) : null;
}
