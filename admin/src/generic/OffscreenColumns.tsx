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
    const measure = () => {
      const w = wrapper();
      if (w !== wrap) {
        wrap?.removeEventListener('scroll', measure);
        w?.addEventListener('scroll', measure, { passive: true });
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
    const ro = new ResizeObserver(measure);
    const root = self.current?.closest('.RaList-main');
    const mo = new MutationObserver(measure);
    if (root) mo.observe(root, { childList: true, subtree: true });
    measure();
    return () => {
      ro.disconnect();
      mo.disconnect();
      wrap?.removeEventListener('scroll', measure);
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
