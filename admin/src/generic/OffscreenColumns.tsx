import { useCallback, useEffect, useRef, useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useTranslate } from 'react-admin';

/**
 * Above a list's table: when the table is wider than the screen (a phone), names the columns
 * off-screen to the right and scrolls to them; nothing when the whole table shows. It finds the
 * table of the list it is placed in (react-admin's `.RaDatagrid-tableWrapper`, which scrolls).
 */
export function OffscreenColumns() {
  const translate = useTranslate();
  const self = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState<string[]>([]);
  const wrapper = useCallback(
    () => self.current?.closest('.RaList-main')?.querySelector<HTMLElement>('.RaDatagrid-tableWrapper') ?? null,
    [],
  );

  useEffect(() => {
    let wrap: HTMLElement | null = null;
    // measured at most once a frame, in the frame's own layout: the list's rows, references and
    // skeletons change the table many times as a page comes in, and a measure at each change forced
    // a layout of the whole page each time (the layout is then the frame's own, unless a component reads it sooner)
    let frame = 0;
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    const measure = () => {
      frame = 0;
      const w = wrapper();
      if (w !== wrap) {
        wrap?.removeEventListener('scroll', schedule);
        w?.addEventListener('scroll', schedule, { passive: true });
        if (w) ro.observe(w);
        wrap = w;
      }
      if (!w) return;
      const right = w.getBoundingClientRect().right;
      const off =
        w.scrollWidth > w.clientWidth + 1
          ? Array.from(w.querySelectorAll<HTMLElement>('thead th'))
              .filter((th) => th.getBoundingClientRect().right > right + 1 && (th.textContent ?? '').trim() !== '')
              .map((th) => (th.textContent ?? '').trim())
          : [];
      setHidden((old) => (old.join('\u0000') === off.join('\u0000') ? old : off));
    };
    const ro = new ResizeObserver(schedule);
    const root = self.current?.closest('.RaList-main');
    const mo = new MutationObserver(schedule);
    if (root) mo.observe(root, { childList: true, subtree: true });
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      ro.disconnect();
      mo.disconnect();
      wrap?.removeEventListener('scroll', schedule);
    };
  }, [wrapper]);

  return (
    <Box
      ref={self}
      data-testid="list-more-columns"
      sx={{ display: hidden.length ? 'flex' : 'none', alignItems: 'center', flexWrap: 'wrap', gap: 1, px: 1, pt: 1 }}
    >
      {hidden.length > 0 && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 200px' }}>
            {translate('admin.table.more_columns', { n: hidden.length, names: hidden.join(', ') })}
          </Typography>
          <Button
            size="small"
            endIcon={<ChevronRightIcon />}
            onClick={() => {
              const w = wrapper();
              w?.scrollBy({ left: w.clientWidth * 0.8, behavior: 'smooth' });
            }}
          >
            {translate('admin.table.scroll_right')}
          </Button>
        </>
      )}
    </Box>
  );
}
