import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  List,
  ListItemButton,
  ListItemText,
  TextField,
  Typography,
} from '@mui/material';
import { Title, useNotify, useTranslate } from 'react-admin';
import { requestJson } from '../api/http';
import { getToken } from '../api/session';
import { errorMessage } from '../api/useFetch';
import { useMeta } from '../meta/store';

interface Last {
  id: number;
  body: string;
  author: 'visitor' | 'operator';
  created_at: string;
}
interface InboxRow {
  id: number;
  visitor_name: string | null;
  user_fio: string | null;
  lang: string;
  created_at: string;
  unread: number;
  last: Last | null;
}
interface Msg {
  id: number;
  author: 'visitor' | 'operator';
  body: string;
  created_at: string;
}
interface Conversation {
  id: number;
  status: 'open' | 'closed';
  visitor_name: string | null;
  lang: string;
  messages: Msg[];
}
type ChatEvent =
  | { type: 'ready' }
  | ({ type: 'message'; chat: number } & Msg)
  | { type: 'closed'; chat: number }
  | { type: 'read'; chat: number; upTo: number };

const time = (iso: string) => new Date(iso).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Tashkent' });

/**
 * The operator's chat screen (`#/notification/operator-chat`, docs/chat.md): the open chats with
 * the count of visitor messages no operator has read, newest activity first; a conversation opened
 * beside them, answered and closed. Everything arrives through the chat's WebSocket as it is
 * committed (a message, a chat read by another operator, a chat closed); after a lost connection
 * the inbox and the conversation are read again.
 */
export function OperatorChat() {
  const translate = useTranslate();
  const notify = useNotify();
  const model = useMeta();
  const base = model.byName.get('chats')?.path ?? '/api/notification/chats';
  const [inbox, setInbox] = useState<InboxRow[] | null>(null);
  const [current, setCurrent] = useState<Conversation | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [online, setOnline] = useState(true);
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState('');
  const currentId = useRef<number | null>(null);
  currentId.current = current?.id ?? null;
  const log = useRef<HTMLOListElement>(null);

  const loadInbox = useCallback(async () => {
    try {
      setInbox(await requestJson<InboxRow[]>(`${base}/inbox`));
      setError('');
    } catch (e) {
      setError(translate(errorMessage(e), { _: errorMessage(e) }));
    }
  }, [base, translate]);

  const markRead = useCallback(
    async (id: number) => {
      try {
        await requestJson(`${base}/${id}/read`, { method: 'POST', body: {} });
      } catch {
        /* the count stays; the next view retries */
      }
    },
    [base],
  );

  const open = useCallback(
    async (id: number) => {
      try {
        const c = await requestJson<Conversation>(`${base}/${id}/conversation`);
        setCurrent(c);
        setInbox((rows) => rows?.map((r) => (r.id === id ? { ...r, unread: 0 } : r)) ?? rows);
        if (c.messages.length) void markRead(id);
      } catch (e) {
        notify(errorMessage(e), { type: 'error' });
      }
    },
    [base, markRead, notify],
  );

  // the socket: every chat's events, as they are committed (opened once: the handlers are read through refs)
  const handlers = useRef({ loadInbox, markRead, open });
  handlers.current = { loadInbox, markRead, open };
  useEffect(() => {
    const loadInbox = () => handlers.current.loadInbox();
    const markRead = (id: number) => handlers.current.markRead(id);
    const open = (id: number) => handlers.current.open(id);
    let ws: WebSocket | null = null;
    let stop = false;
    let retry = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      if (stop) return;
      ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/chat/socket`);
      ws.onopen = () => ws?.send(JSON.stringify({ type: 'hello', session: getToken() }));
      ws.onmessage = (ev) => {
        const e = JSON.parse(String(ev.data)) as ChatEvent;
        if (e.type === 'ready') {
          retry = 0;
          setOnline(true);
          void loadInbox();
          if (currentId.current) void open(currentId.current);
        } else if (e.type === 'message') {
          const viewing = currentId.current === e.chat;
          if (viewing) {
            setCurrent((c) =>
              c && !c.messages.some((m) => m.id === e.id)
                ? { ...c, messages: [...c.messages, { id: e.id, author: e.author, body: e.body, created_at: e.created_at }] }
                : c,
            );
            if (e.author === 'visitor') void markRead(e.chat);
          }
          setInbox((rows) => {
            if (!rows) return rows;
            const row = rows.find((r) => r.id === e.chat);
            if (!row) {
              void loadInbox();
              return rows;
            }
            const updated = {
              ...row,
              last: { id: e.id, body: e.body, author: e.author, created_at: e.created_at },
              unread: row.unread + (e.author === 'visitor' && !viewing ? 1 : 0),
            };
            return [updated, ...rows.filter((r) => r.id !== e.chat)];
          });
        } else if (e.type === 'read') {
          setInbox((rows) => rows?.map((r) => (r.id === e.chat && (r.last?.id ?? 0) <= e.upTo ? { ...r, unread: 0 } : r)) ?? rows);
        } else if (e.type === 'closed') {
          setInbox((rows) => rows?.filter((r) => r.id !== e.chat) ?? rows);
          setCurrent((c) => (c && c.id === e.chat ? { ...c, status: 'closed' } : c));
        }
      };
      ws.onclose = () => {
        ws = null;
        setOnline(false);
        if (!stop) timer = setTimeout(connect, Math.min(30_000, 1000 * 2 ** retry++));
      };
    };
    void loadInbox();
    connect();
    return () => {
      stop = true;
      clearTimeout(timer);
      ws?.close();
    };
  }, []);

  useEffect(() => {
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [current?.messages.length]);

  const answer = async (ev?: FormEvent) => {
    ev?.preventDefault();
    const body = text.trim();
    if (!current || !body || busy) return;
    setBusy(true);
    try {
      const m = await requestJson<Msg>(`${base}/${current.id}/answer`, { method: 'POST', body: { body } });
      setCurrent((c) => (c && !c.messages.some((x) => x.id === m.id) ? { ...c, messages: [...c.messages, m] } : c));
      setText('');
    } catch (e) {
      notify(errorMessage(e), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const close = async () => {
    if (!current) return;
    setConfirm(false);
    try {
      await requestJson(`${base}/${current.id}/actions/close`, { method: 'POST', body: {} });
      setCurrent((c) => (c ? { ...c, status: 'closed' } : c));
      setInbox((rows) => rows?.filter((r) => r.id !== current.id) ?? rows);
    } catch (e) {
      notify(errorMessage(e), { type: 'error' });
    }
  };

  const who = (r: { visitor_name: string | null; user_fio?: string | null; id: number }) =>
    r.user_fio || r.visitor_name || translate('admin.chat.visitor', { id: r.id });

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="page-screen-operator-chat">
      <Title title={translate('menu.operator_chat')} />
      {!online && (
        <Alert severity="warning" sx={{ mb: 1 }} data-testid="operator-offline">
          {translate('admin.chat.offline')}
        </Alert>
      )}
      {error && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '320px 1fr' }, alignItems: 'start' }}>
        <Card component="section" aria-labelledby="chat-inbox-title">
          <CardContent sx={{ p: 1, '&:last-child': { pb: 1 } }}>
            <Typography id="chat-inbox-title" variant="subtitle1" component="h2" sx={{ px: 1 }}>
              {translate('admin.chat.open_chats')}
            </Typography>
            {inbox && !inbox.length && (
              <Typography sx={{ p: 1 }} color="text.secondary" data-testid="chat-inbox-empty">
                {translate('admin.chat.no_chats')}
              </Typography>
            )}
            <List dense data-testid="chat-inbox" aria-live="polite">
              {inbox?.map((r) => (
                <ListItemButton
                  key={r.id}
                  selected={current?.id === r.id}
                  onClick={() => void open(r.id)}
                  data-testid={`chat-row-${r.id}`}
                  aria-label={`${who(r)}${r.unread ? ` — ${translate('admin.chat.unread', { n: r.unread })}` : ''}`}
                >
                  <ListItemText
                    primary={who(r)}
                    secondary={r.last ? `${time(r.last.created_at)} · ${r.last.body}` : time(r.created_at)}
                    secondaryTypographyProps={{ noWrap: true }}
                  />
                  {r.unread > 0 && <Badge color="error" badgeContent={r.unread} sx={{ mr: 1.5 }} data-testid="chat-row-unread" />}
                </ListItemButton>
              ))}
            </List>
          </CardContent>
        </Card>
        <Card component="section" aria-labelledby="chat-conversation-title">
          <CardContent>
            {!current && <Typography color="text.secondary">{translate('admin.chat.choose')}</Typography>}
            {current && (
              <>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
                  <Typography id="chat-conversation-title" variant="h6" component="h2" sx={{ flex: 1 }}>
                    {who({ ...current, user_fio: inbox?.find((r) => r.id === current.id)?.user_fio })}
                  </Typography>
                  <Chip size="small" label={translate(`enums.lang.${current.lang}`)} />
                  <Chip
                    size="small"
                    color={current.status === 'open' ? 'success' : 'default'}
                    label={translate(`enums.status.${current.status}`)}
                    data-testid="chat-status"
                  />
                  {current.status === 'open' && (
                    <Button color="warning" variant="outlined" onClick={() => setConfirm(true)} data-testid="chat-close">
                      {translate('actions.chat_close')}
                    </Button>
                  )}
                </Box>
                <Box
                  component="ol"
                  ref={log}
                  role="log"
                  aria-live="polite"
                  aria-label={translate('admin.chat.messages')}
                  tabIndex={0}
                  data-testid="chat-messages"
                  sx={{
                    listStyle: 'none',
                    m: 0,
                    p: 1,
                    height: { xs: 320, md: 420 },
                    overflowY: 'auto',
                    bgcolor: 'grey.50',
                    borderRadius: 1,
                    display: 'flex',
                    flexDirection: 'column',
                    gap: 1,
                  }}
                >
                  {current.messages.map((m) => (
                    <Box
                      component="li"
                      key={m.id}
                      data-testid={`op-msg-${m.author}`}
                      sx={{
                        alignSelf: m.author === 'operator' ? 'flex-end' : 'flex-start',
                        maxWidth: '80%',
                        px: 1.5,
                        py: 1,
                        borderRadius: 2,
                        whiteSpace: 'pre-wrap',
                        overflowWrap: 'anywhere',
                        bgcolor: m.author === 'operator' ? '#e8f5e9' : 'background.paper',
                        border: 1,
                        borderColor: m.author === 'operator' ? 'success.light' : 'divider',
                      }}
                    >
                      <Typography variant="caption" color="text.secondary" component="div">
                        {translate(`enums.author.${m.author}`)} · {time(m.created_at)}
                      </Typography>
                      {m.body}
                    </Box>
                  ))}
                </Box>
                {current.status === 'open' ? (
                  <Box component="form" onSubmit={answer} sx={{ display: 'flex', gap: 1, mt: 1, alignItems: 'flex-start' }}>
                    <TextField
                      label={translate('admin.chat.answer')}
                      value={text}
                      onChange={(e) => setText(e.target.value)}
                      multiline
                      minRows={2}
                      maxRows={6}
                      fullWidth
                      inputProps={{ maxLength: 2000, 'data-testid': 'chat-answer' }}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' && !e.shiftKey) {
                          e.preventDefault();
                          void answer();
                        }
                      }}
                    />
                    <Button
                      type="submit"
                      variant="contained"
                      disabled={busy || !text.trim()}
                      sx={{ minHeight: 56 }}
                      data-testid="chat-send"
                    >
                      {translate('admin.chat.send')}
                    </Button>
                  </Box>
                ) : (
                  <Alert severity="info" sx={{ mt: 1 }}>
                    {translate('admin.chat.closed')}
                  </Alert>
                )}
              </>
            )}
          </CardContent>
        </Card>
      </Box>
      <Dialog open={confirm} onClose={() => setConfirm(false)} aria-labelledby="chat-close-title">
        <DialogContent>
          <DialogContentText id="chat-close-title">{translate('admin.chat.confirm_close')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>{translate('ra.action.cancel')}</Button>
          <Button color="warning" variant="contained" onClick={() => void close()} data-testid="chat-close-confirm">
            {translate('actions.chat_close')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
