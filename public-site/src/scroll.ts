/**
 * Smooth in-page scrolling: 1000 ms with a 50 px offset (the sticky header's height), eased.
 * A new scroll cancels the one under way; "reduced motion" jumps at once.
 */
export const SCROLL_MS = 1000;
export const SCROLL_OFFSET = 50;

let running = 0;

const ease = (p: number) => (p < 0.5 ? 4 * p * p * p : 1 - (-2 * p + 2) ** 3 / 2);

export function scrollToElement(el: Element, { duration = SCROLL_MS, offset = SCROLL_OFFSET } = {}): Promise<void> {
  const token = ++running;
  const start = window.scrollY;
  const max = document.documentElement.scrollHeight - window.innerHeight;
  const target = Math.max(0, Math.min(max, el.getBoundingClientRect().top + start - offset));
  const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  if (reduce || duration <= 0 || target === start) {
    window.scrollTo(0, target);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const t0 = performance.now();
    const step = (now: number) => {
      if (token !== running) return resolve();
      const p = Math.min(1, (now - t0) / duration);
      window.scrollTo(0, start + (target - start) * ease(p));
      if (p < 1) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}

/** Scrolls to the element with this id once it exists (pages load their data late), then focuses it. */
export function scrollToId(id: string, opts?: { duration?: number; offset?: number }): void {
  const deadline = performance.now() + 3000;
  const tryNow = () => {
    const el = document.getElementById(id);
    if (el) {
      void scrollToElement(el, opts).then(() => {
        if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
        (el as HTMLElement).focus({ preventScroll: true });
      });
    } else if (performance.now() < deadline) requestAnimationFrame(tryNow);
  };
  tryNow();
}

export function scrollToTop(): void {
  ++running;
  window.scrollTo({ top: 0, left: 0, behavior: 'instant' as ScrollBehavior });
}
