import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useI18n, type Lang } from '../i18n';
import { CAPTIONS, type ChatKey } from './captions';
import './chat.css';

/**
 * Chat with an operator (docs/chat.md): a button at the corner of every page opens a panel where a
 * visitor writes to the fund's operators and reads their answers as they come (a WebSocket at
 * /api/chat/socket; after a lost connection the missed messages are fetched with `?after=`). The
 * chat's id and token stay in localStorage, so a reload or another page keeps the conversation; a
 * population user signed in to the back-office on this origin writes under their session.
 */
interface Msg {
  id: number;
  author: 'visitor' | 'operator';
  body: string;
  created_at: string;
}
interface Stored {
  id: number;
  token: string;
}
interface ChatAnswer {
  id: number;
  status: 'open' | 'closed';
  token?: string;
  messages: Msg[];
}

const STORE = 'ecofond.chat';
const SESSION = 'ecofond.session'; // the back-office's (same origin)
const MAX = 2000;

function loadStored(): Stored | null {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) ?? 'null') as Stored | null;
    return v && Number.isSafeInteger(v.id) && typeof v.token === 'string' ? v : null;
  } catch {
    return null;
  }
}
function saveStored(s: Stored | null): void {
  try {
    if (s) localStorage.setItem(STORE, JSON.stringify(s));
    else localStorage.removeItem(STORE);
  } catch {
    /* private mode */
  }
}
let sessionOk = true;
function session(): string | undefined {
  if (!sessionOk) return undefined;
  try {
    return (JSON.parse(localStorage.getItem(SESSION) ?? 'null') as { token?: string } | null)?.token;
  } catch {
    return undefined;
  }
}

class ChatError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function api<T>(path: string, lang: Lang, o: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { Language: lang, Accept: 'application/json' };
  if (o.body !== undefined) headers['Content-Type'] = 'application/json';
  if (o.token) headers['X-Chat-Token'] = o.token;
  const s = session();
  if (s) headers.Authorization = `Bearer ${s}`;
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: o.method ?? 'GET',
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
  } catch {
    throw new ChatError(0, '');
  }
  const data = (await res.json().catch(() => null)) as { message?: string } | null;
  if (res.status === 401 && s) {
    sessionOk = false;
    return api<T>(path, lang, o);
  }
  if (!res.ok) throw new ChatError(res.status, data?.message ?? '');
  return data as T;
}

const time = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

export default function ChatWidget() {
  const { lang } = useI18n();
  const c = useCallback((k: ChatKey) => CAPTIONS[lang][k], [lang]);
  const [open, setOpen] = useState(false);
  const [stored, setStored] = useState<Stored | null>(loadStored);
  const [messages, setMessages] = useState<Msg[]>([]);
  const [status, setStatus] = useState<'open' | 'closed'>('open');
  const [online, setOnline] = useState(true);
  const [unread, setUnread] = useState(0);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const panelId = useId();
  const titleId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLOListElement>(null);
  const openRef = useRef(open);
  openRef.current = open;
  const lastId = useRef(0);

  const merge = useCallback((incoming: Msg[]) => {
    if (!incoming.length) return;
    setMessages((old) => {
      const seen = new Set(old.map((m) => m.id));
      const add = incoming.filter((m) => !seen.has(m.id));
      if (!add.length) return old;
      const next = [...old, ...add].sort((a, b) => a.id - b.id);
      lastId.current = next[next.length - 1].id;
      return next;
    });
  }, []);

  // the conversation so far, and then its events as they come, while there is a chat
  useEffect(() => {
    if (!stored) return;
    let ws: WebSocket | null = null;
    let stop = false;
    let retry = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const catchUp = async () => {
      try {
        const h = await api<ChatAnswer>(`/public/chats/${stored.id}${lastId.current ? `?after=${lastId.current}` : ''}`, lang, {
          token: stored.token,
        });
        merge(h.messages);
        setStatus(h.status);
        return h.status;
      } catch (e) {
        if (e instanceof ChatError && e.status === 404) {
          saveStored(null);
          setStored(null);
          setMessages([]);
          lastId.current = 0;
        }
        return null;
      }
    };
    const connect = () => {
      if (stop) return;
      const proto = location.protocol === 'https:' ? 'wss' : 'ws';
      ws = new WebSocket(`${proto}://${location.host}/api/chat/socket`);
      ws.onopen = () => ws?.send(JSON.stringify({ type: 'hello', chat: stored.id, token: stored.token, session: session() }));
      ws.onmessage = (ev) => {
        const e = JSON.parse(String(ev.data)) as { type: string; chat?: number } & Partial<Msg>;
        if (e.type === 'ready') {
          retry = 0;
          setOnline(true);
          void catchUp();
        } else if (e.type === 'message' && e.chat === stored.id) {
          merge([{ id: e.id!, author: e.author!, body: e.body!, created_at: e.created_at! }]);
          if (e.author === 'operator' && !openRef.current) setUnread((n) => n + 1);
        } else if (e.type === 'closed' && e.chat === stored.id) setStatus('closed');
      };
      ws.onclose = (ev) => {
        ws = null;
        if (stop) return;
        if (ev.code === 4404) {
          void catchUp();
          return;
        }
        setOnline(false);
        timer = setTimeout(connect, Math.min(30_000, 1000 * 2 ** retry++));
      };
    };
    void catchUp().then((s) => {
      if (s === 'open') connect();
    });
    return () => {
      stop = true;
      clearTimeout(timer);
      ws?.close();
    };
  }, [stored, lang, merge]);

  useEffect(() => {
    if (!open) return;
    setUnread(0);
    input.current?.focus();
  }, [open]);
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages, open]);

  // closing gives the focus back to the button (rendered again once the panel is gone)
  const wasOpen = useRef(false);
  useEffect(() => {
    if (!open && wasOpen.current) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  const close = () => setOpen(false);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') close();
  };

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    const body = text.trim();
    if (!body || busy) return;
    if (body.length > MAX) {
      setError(c('too_long'));
      return;
    }
    setBusy(true);
    setError('');
    try {
      if (!stored || status === 'closed') {
        const r = await api<ChatAnswer & { token: string }>('/public/chats', lang, {
          method: 'POST',
          body: { name: name.trim() || undefined, body },
        });
        lastId.current = 0;
        setMessages([]);
        merge(r.messages);
        setStatus('open');
        const s = { id: r.id, token: r.token };
        saveStored(s);
        setStored(s);
      } else {
        merge([await api<Msg>(`/public/chats/${stored.id}/messages`, lang, { method: 'POST', body: { body }, token: stored.token })]);
      }
      setText('');
    } catch (err) {
      const m = err instanceof ChatError ? err : new ChatError(0, '');
      if (m.status === 409) setStatus('closed');
      setError(m.message || c('error'));
    } finally {
      setBusy(false);
      input.current?.focus();
    }
  };

  const restart = () => {
    saveStored(null);
    setStored(null);
    setMessages([]);
    lastId.current = 0;
    setStatus('open');
    setError('');
    input.current?.focus();
  };

  const started = !!stored;
  return (
    <div className="chat" lang={lang === 'uk' ? 'uz-Cyrl' : lang === 'uz' ? 'uz-Latn' : 'ru'}>
      {!open && (
        <button
          ref={button}
          type="button"
          className="chat-launch"
          aria-expanded={false}
          aria-controls={panelId}
          onClick={() => setOpen(true)}
          data-testid="chat-open"
        >
          <svg className="chat-launch-icon" viewBox="0 0 24 24" aria-hidden="true">
            <path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z" />
          </svg>
          <span className="chat-launch-text">{c('open')}</span>
          {unread > 0 && (
            <span className="chat-badge" data-testid="chat-unread">
              {unread}
              <span className="visually-hidden"> — {c('new_message')}</span>
            </span>
          )}
        </button>
      )}
      {open && (
        <section
          id={panelId}
          className="chat-panel"
          role="dialog"
          aria-modal="false"
          aria-labelledby={titleId}
          onKeyDown={onKey}
          data-testid="chat-panel"
        >
          <header className="chat-head">
            <h2 id={titleId}>{c('title')}</h2>
            <button type="button" className="chat-x" onClick={close} aria-label={c('close')} data-testid="chat-close">
              <svg viewBox="0 0 24 24" aria-hidden="true">
                <path fill="currentColor" d="M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12z" />
              </svg>
            </button>
          </header>
          {!online && (
            <p className="chat-note" role="status">
              {c('offline')}
            </p>
          )}
          <ol ref={log} className="chat-log" role="log" aria-live="polite" aria-label={c('log')} data-testid="chat-log" tabIndex={0}>
            {!messages.length && <li className="chat-intro">{started ? c('empty') : c('intro')}</li>}
            {messages.map((m) => (
              <li key={m.id} className={`chat-msg chat-${m.author}`} data-testid={`chat-msg-${m.author}`}>
                <span className="visually-hidden">{m.author === 'operator' ? c('operator') : c('you')}: </span>
                <span className="chat-body">{m.body}</span>
                <time className="chat-time" dateTime={m.created_at}>
                  {time(m.created_at)}
                </time>
              </li>
            ))}
            {status === 'closed' && (
              <li className="chat-intro" data-testid="chat-closed">
                {c('closed')}
              </li>
            )}
          </ol>
          {error && (
            <p className="chat-error" role="alert" data-testid="chat-error">
              {error}
            </p>
          )}
          <form className="chat-form" onSubmit={send}>
            {(!started || status === 'closed') && (
              <label className="chat-name">
                <span>{c('name')}</span>
                <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} autoComplete="name" data-testid="chat-name" />
              </label>
            )}
            {status === 'closed' && started && (
              <button type="button" className="chat-restart" onClick={restart}>
                {c('restart')}
              </button>
            )}
            <div className="chat-compose">
              <label className="visually-hidden" htmlFor={`${panelId}-text`}>
                {c('message')}
              </label>
              <textarea
                id={`${panelId}-text`}
                ref={input}
                value={text}
                rows={2}
                maxLength={MAX}
                placeholder={c('placeholder')}
                onChange={(e) => setText(e.target.value)}
                data-testid="chat-input"
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey) {
                    e.preventDefault();
                    void send();
                  }
                }}
              />
              <button type="submit" className="chat-send" disabled={busy || !text.trim()} data-testid="chat-send">
                {busy ? c('sending') : c('send')}
              </button>
            </div>
          </form>
        </section>
      )}
    </div>
  );
}
