import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Box, Button, Divider, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { requestJson } from '../api/http';

/** How often the bell asks for the unread count (ms); it also asks when the window gets focus and when opened. */
export const BELL_POLL_MS = 15_000;

interface Mine {
  id: number;
  subject: string | null;
  body: string;
  read: boolean;
  sent_at: string | null;
}

/**
 * The app bar's bell (docs/notifications.md): the number of one's unread in-app notifications, the
 * latest of them in a list, each marked read on a click, or all at once. A notification that
 * arrives while the back-office is open is shown at the top for 2 500 ms (the spec's notification
 * time, AppNotification).
 */
export function NotificationBell() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [count, setCount] = useState(0);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [items, setItems] = useState<Mine[] | null>(null);
  const last = useRef<number | null | undefined>(undefined);

  const refresh = useCallback(async () => {
    try {
      const u = await requestJson<{ count: number; last: number | null }>('/api/notification/my/unread');
      setCount(u.count);
      // something new since the last look (not on the first): shown at the top
      if (last.current !== undefined && u.last !== null && u.last !== last.current) {
        const fresh = await requestJson<{ data: Mine[] }>('/api/notification/my?perPage=1');
        const n = fresh.data[0];
        if (n && !n.read) notify(n.subject ?? n.body, { type: 'info', messageArgs: { _: n.subject ? `${n.subject}: ${n.body}` : n.body } });
      }
      last.current = u.last;
    } catch {
      /* the next poll tries again */
    }
  }, [notify]);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), BELL_POLL_MS);
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
    };
  }, [refresh]);

  const load = useCallback(async () => {
    const page = await requestJson<{ data: Mine[]; unread: number }>('/api/notification/my?perPage=10');
    setItems(page.data);
    setCount(page.unread);
  }, []);

  const open = async (el: HTMLElement) => {
    setAnchor(el);
    await load().catch(() => setItems([]));
  };

  const markRead = async (n: Mine) => {
    if (n.read) return;
    await requestJson('/api/notification/my/read', { method: 'POST', body: { ids: [n.id] } });
    await load();
  };

  const markAll = async () => {
    await requestJson('/api/notification/my/read-all', { method: 'POST' });
    await load();
  };

  const when = (s: string | null) =>
    s
      ? new Date(s).toLocaleString(locale === 'ru' ? 'ru-RU' : 'uz-Latn-UZ', {
          timeZone: 'Asia/Tashkent',
          dateStyle: 'short',
          timeStyle: 'short',
        })
      : '';

  return (
    <>
      <Tooltip title={translate('admin.bell.title')}>
        <IconButton
          color="inherit"
          onClick={(e) => void open(e.currentTarget)}
          // the badge's number is part of the button's name (what is seen is what is announced)
          aria-label={count > 0 ? translate('admin.bell.title_count', { n: count > 99 ? '99+' : count }) : translate('admin.bell.title')}
          data-testid="bell"
        >
          <Badge badgeContent={count} color="error" max={99} data-testid="bell-count" data-count={count}>
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ width: 360, maxHeight: 480, overflow: 'auto' }} data-testid="bell-list">
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}>
            <Typography variant="subtitle1" component="h2">
              {translate('admin.bell.title')}
            </Typography>
            <Button size="small" onClick={() => void markAll()} disabled={!count} data-testid="bell-read-all">
              {translate('admin.bell.read_all')}
            </Button>
          </Box>
          <Divider />
          {items && !items.length && (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {translate('admin.bell.empty')}
            </Typography>
          )}
          <List dense disablePadding>
            {(items ?? []).map((n) => (
              <ListItemButton
                key={n.id}
                onClick={() => void markRead(n)}
                data-testid="bell-item"
                data-read={n.read}
                sx={{ alignItems: 'flex-start', bgcolor: n.read ? undefined : 'action.hover' }}
                title={n.read ? undefined : translate('admin.bell.mark_read')}
              >
                <ListItemText
                  primary={
                    <Typography variant="body2" sx={{ fontWeight: n.read ? 400 : 700 }}>
                      {n.subject ?? ''}
                    </Typography>
                  }
                  secondary={
                    <>
                      <Typography variant="body2" component="span" sx={{ display: 'block', whiteSpace: 'pre-line' }}>
                        {n.body}
                      </Typography>
                      {when(n.sent_at)}
                    </>
                  }
                />
              </ListItemButton>
            ))}
          </List>
        </Box>
      </Popover>
    </>
  );
}
