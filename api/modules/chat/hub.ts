import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import pg from 'pg';
import { APP_NAME } from '../../db/connection.ts';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Database } from '../../db/connection.ts';
import type { Lang, MetaModel } from '../../meta/types.ts';
import { LANGS } from '../../meta/types.ts';
import { translate } from '../../meta/captions.ts';
import { principalForToken, tokenHash } from '../../auth/sessions.ts';
import { ANONYMOUS, type Principal } from '../../auth/ability.ts';
import { AUTH_CHANNEL, sessionCacheOf, type AuthChange, type SessionPrincipal } from '../../auth/session-cache.ts';
import { chatSetting } from '../../auth/config.ts';
import { ApiError, ERROR_CODES } from '../../kernel/errors.ts';
import { repositoryOf } from '../../engine/repository.ts';
import { CHAT_CHANNEL } from './events.ts';
import { visitorChat } from './routes.ts';

/** Where the socket answers (metadata/modules/chat.json declares it, so the catalogue lists it). */
export const CHAT_SOCKET_PATH = '/api/chat/socket';
/** A socket must say who it is within this time. */
const HELLO_MS = 10_000;
/** Pings keep proxies from closing quiet sockets and find dead ones. */
const PING_MS = 30_000;
/**
 * Operators' sessions are looked at again this often whatever is heard — a backstop: a change of a
 * session, user or role is heard at once on AUTH_CHANNEL, and an expired cache entry is read again
 * before the next event is sent.
 */
const RECHECK_MS = 60_000;
/** A socket that does not read what it is sent is dropped past this many bytes waiting. */
const MAX_BUFFERED = 1 << 20;

interface Client {
  ws: WebSocket;
  alive: boolean;
  /** the language of its close reasons: the upgrade's (`Language` header, `?lang=`), then an operator's own */
  lang: Lang;
  /** an operator: every chat's events; a visitor: their chat's only */
  role?: 'operator' | 'visitor';
  chat?: number;
  /** an operator's bearer token, its hash (the session cache's key), and the principal last found to operate */
  session?: string;
  hash?: string;
  principal?: SessionPrincipal;
  /** while an operator's right is being looked at again: the events that came meanwhile, sent in order if it holds */
  held?: string[];
  checking?: boolean;
  /** a change was heard while looking: look once more */
  again?: boolean;
}

/** A WebSocket close reason is at most 123 bytes of UTF-8: cut on a character. */
function closeReason(text: string): string {
  let out = text;
  while (Buffer.byteLength(out) > 123) out = out.slice(0, -1);
  return out;
}

/** The language an upgrade asks for, as the API's `language()` middleware reads it. */
function langOf(req: IncomingMessage): Lang {
  const header = req.headers.language;
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('lang');
  const raw = String((Array.isArray(header) ? header[0] : header) || query || '').toLowerCase();
  return (LANGS as string[]).includes(raw) ? (raw as Lang) : 'uz';
}

/**
 * The chat's WebSocket (docs/chat.md). A client connects to /api/chat/socket and says who it is
 * in its first message — `{"type":"hello","session":"<bearer token>"}` for an operator (who must
 * hold the operator screen's action and read the chats), `{"type":"hello","chat":<id>,"token":"…"}`
 * for a visitor (or `"session"` of the population user whose chat it is) — never in the URL. It is
 * then sent, as JSON, every event of its chats: a message, a chat read, a chat closed. The socket
 * only listens: writes go through the HTTP routes, the engine's one write path, whose transactions
 * `pg_notify` the events; every server process LISTENs (a dedicated connection on a real server,
 * PGlite's own on the embedded one), so a message written through any process reaches the sockets
 * of all of them.
 */
export class ChatHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
  private readonly operators = new Set<Client>();
  private readonly visitors = new Map<number, Set<Client>>();
  private readonly clients = new Set<Client>();
  /** the raw sockets let through the upgrade and not yet closed: in all, and by client address */
  private sockets = 0;
  private readonly byAddress = new Map<string, number>();
  /** as the HTTP routes' `ctx.ip` (api/app.ts sets Koa's `proxy` from the same variable) */
  private readonly trustProxy = process.env.ECOFOND_TRUST_PROXY === '1';
  private listener?: pg.Client;
  private unlisten: (() => Promise<void>)[] = [];
  private timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly model: MetaModel,
  ) {}

  /** Starts listening for events and answers upgrades at the socket's path on the server. */
  async attach(server: Server): Promise<this> {
    await this.listen();
    server.on('upgrade', this.onUpgrade);
    this.timers.push(setInterval(() => this.ping(), PING_MS).unref(), setInterval(() => this.recheck(), RECHECK_MS).unref());
    return this;
  }

  /** How many sockets are open (operators, visitors; `sockets`: every one let through the upgrade) — for tests and the bench. */
  get counts() {
    let visitors = 0;
    for (const s of this.visitors.values()) visitors += s.size;
    return { operators: this.operators.size, visitors, all: this.clients.size, sockets: this.sockets };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    for (const c of this.clients) c.ws.terminate();
    this.wss.close();
    for (const u of this.unlisten) await u().catch(() => {});
    await this.listener?.end().catch(() => {});
  }

  /**
   * The chat's events and the sessions' changes (AUTH_CHANNEL, api/auth/session-cache.ts), on one
   * connection: PostgreSQL delivers one connection's notifications in commit order, so a message
   * committed after an operator was blocked comes after the block's notice, by which time their
   * socket holds what it is sent until their right is looked at again.
   */
  private async listen(): Promise<void> {
    if (this.db.kind === 'pglite') {
      this.unlisten.push(
        await this.db.pglite!.listen(AUTH_CHANNEL, (payload) => this.authChanged(payload)),
        await this.db.pglite!.listen(CHAT_CHANNEL, (payload) => this.dispatch(payload)),
      );
      return;
    }
    // a connection of its own to the primary, not a pooled one (DATABASE_LISTEN_URL when the pool is a pgbouncer)
    const client = new pg.Client({ connectionString: this.db.listenUrl ?? this.db.url, application_name: APP_NAME.listen });
    client.on('notification', (n) => {
      if (n.channel === CHAT_CHANNEL && n.payload) this.dispatch(n.payload);
      else if (n.channel === AUTH_CHANNEL) this.authChanged(n.payload);
    });
    client.on('error', () => {
      /* reconnected on 'end' */
    });
    client.on('end', () => {
      if (this.closed) return;
      // events written while the listener was away are caught up by the clients (`?after=`) when they reconnect
      for (const c of this.clients) c.ws.close(1012, 'restart');
      setTimeout(() => void this.listen().catch(() => {}), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${AUTH_CHANNEL}`);
    await client.query(`LISTEN ${CHAT_CHANNEL}`);
    this.listener = client;
  }

  /**
   * An event from the database to the sockets it concerns, sent as the text it came as. An
   * operator's is sent when their session is in this process's session cache as it was when their
   * right was last found (or as another that still holds it) — a lookup in memory; when the entry is
   * gone (a change forgot it, or it aged out) the event waits with the socket's others while the
   * session is read again, and goes only if the operator still may operate.
   */
  private dispatch(payload: string): void {
    let chat: number;
    try {
      chat = Number((JSON.parse(payload) as { chat: number }).chat);
    } catch {
      return;
    }
    const cache = sessionCacheOf(this.db.knex);
    for (const c of this.operators) {
      if (c.held) {
        c.held.push(payload);
        continue;
      }
      const hit = cache.get(c.hash!);
      if (hit && (hit.principal === c.principal || this.mayOperate(hit.principal))) {
        c.principal = hit.principal;
        this.send(c, payload);
      } else {
        c.held = [payload];
        this.verify(c);
      }
    }
    for (const c of this.visitors.get(chat) ?? []) this.send(c, payload);
  }

  /**
   * Sessions, users or roles changed (a sign-out, a block, a new password, a role's actions): this
   * process's session cache forgets them (whichever of its listeners hears first), and every
   * operator's socket the change may concern holds its events until its right is looked at again —
   * closed at once if it is gone.
   */
  private authChanged(payload: string | undefined): void {
    sessionCacheOf(this.db.knex).applyPayload(payload);
    let change: AuthChange;
    try {
      change = JSON.parse(payload ?? '') as AuthChange;
    } catch {
      change = { all: true };
    }
    if (!change || typeof change !== 'object') change = { all: true };
    for (const c of this.operators) {
      const p = c.principal;
      if (change.all || change.r?.length || !p || change.s?.includes(p.sessionId) || change.u?.includes(p.id)) {
        c.held ??= [];
        this.verify(c);
      }
    }
  }

  /** Reads an operator's session again (through the session cache) and keeps or closes their socket. */
  private verify(c: Client): void {
    if (c.checking) {
      c.again = true;
      return;
    }
    c.checking = true;
    void (async () => {
      try {
        do {
          c.again = false;
          let p: SessionPrincipal;
          try {
            p = await principalForToken(this.db.knex, c.session!, sessionCacheOf(this.db.knex));
          } catch (err) {
            // no session (ended, expired, its user blocked): 4401; the database out of reach: 1011, the client comes back
            if (err instanceof ApiError) this.shut(c, 4401, err.status === 401 ? err.messageKey : 'errors.unauthorized');
            else this.shut(c, 1011, 'errors.system');
            return;
          }
          c.lang = (LANGS as string[]).includes(p.lang_code) ? (p.lang_code as Lang) : c.lang;
          if (!this.mayOperate(p)) {
            this.shut(c, 4403, 'errors.forbidden');
            return;
          }
          c.principal = p;
        } while (c.again);
        const held = c.held ?? [];
        c.held = undefined;
        for (const text of held) if (c.ws.readyState === c.ws.OPEN) this.send(c, text);
      } finally {
        c.checking = false;
      }
    })();
  }

  /** Closes a socket with its code and the reason in its language; an operator's hears nothing more. */
  private shut(c: Client, code: number, key: string): void {
    this.operators.delete(c);
    c.held = undefined;
    c.ws.close(code, closeReason(translate(this.model, c.lang, key)));
  }

  private send(c: Client, text: string): void {
    if (c.ws.bufferedAmount > MAX_BUFFERED) {
      c.ws.terminate();
      return;
    }
    c.ws.send(text);
  }

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== CHAT_SOCKET_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const onError = () => socket.destroy();
    socket.on('error', onError);
    void this.admit(req, socket, head, onError).catch(onError);
  };

  /** The client's address as the HTTP routes see it (Koa's `ctx.ip`): X-Forwarded-For's first behind a trusted proxy, else the peer's. */
  private addressOf(req: IncomingMessage): string {
    const forwarded = this.trustProxy
      ? String(req.headers['x-forwarded-for'] ?? '')
          .split(',')[0]
          .trim()
      : '';
    return (forwarded || req.socket.remoteAddress || 'unknown').slice(0, 64);
  }

  /**
   * Lets a socket through the upgrade while its address holds fewer than `chat.sockets_per_address`
   * and the process fewer than `chat.sockets_total` (settings, docs/chat.md); past either the
   * upgrade is answered 429 or 503 with the error in the caller's language and no socket is made.
   * A socket is counted from here until it closes, whether or not it ever says hello.
   */
  private async admit(req: IncomingMessage, socket: Duplex, head: Buffer, onError: () => void): Promise<void> {
    const [perAddress, total] = await Promise.all([
      chatSetting(this.db.knex, 'chat.sockets_per_address'),
      chatSetting(this.db.knex, 'chat.sockets_total'),
    ]);
    if (socket.destroyed || this.closed) {
      socket.destroy();
      return;
    }
    // from the settings' answer to the count taken nothing awaits: parallel upgrades count one after another
    const ip = this.addressOf(req);
    const held = this.byAddress.get(ip) ?? 0;
    if (this.sockets >= total) {
      this.refuse(socket, 503, 'Service Unavailable', 'errors.chat_busy', langOf(req));
      return;
    }
    if (held >= perAddress) {
      this.refuse(socket, 429, 'Too Many Requests', 'errors.chat_sockets', langOf(req));
      return;
    }
    this.sockets++;
    this.byAddress.set(ip, held + 1);
    socket.once('close', () => {
      this.sockets--;
      const n = (this.byAddress.get(ip) ?? 1) - 1;
      if (n > 0) this.byAddress.set(ip, n);
      else this.byAddress.delete(ip);
    });
    socket.removeListener('error', onError);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, req));
  }

  /** An upgrade refused before any socket is made: an HTTP answer with the API's error body, then the connection closes. */
  private refuse(socket: Duplex, status: number, text: string, key: string, lang: Lang): void {
    const body = JSON.stringify({ code: ERROR_CODES.tooManyAttempts, message: translate(this.model, lang, key), description: '' });
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Retry-After: 60\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }

  private connected(ws: WebSocket, req: IncomingMessage): void {
    const c: Client = { ws, alive: true, lang: langOf(req) };
    this.clients.add(c);
    const hello = setTimeout(() => ws.close(4401, closeReason(translate(this.model, c.lang, 'errors.unauthorized'))), HELLO_MS);
    ws.on('pong', () => {
      c.alive = true;
    });
    ws.on('close', () => {
      clearTimeout(hello);
      this.forget(c);
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => {
      if (c.role) {
        // the socket only listens; a client's "ping" is answered so it can tell a dead link
        if (String(data) === '{"type":"ping"}') ws.send('{"type":"pong"}');
        return;
      }
      clearTimeout(hello);
      void this.hello(c, String(data), req).catch(() => ws.close(4400, closeReason(translate(this.model, c.lang, 'errors.bad_body'))));
    });
  }

  private async hello(c: Client, text: string, _req: IncomingMessage): Promise<void> {
    const msg = JSON.parse(text) as { type?: string; session?: unknown; chat?: unknown; token?: unknown };
    const close = (code: number, key: string) => c.ws.close(code, closeReason(translate(this.model, c.lang, key)));
    if (msg.type !== 'hello') {
      close(4400, 'errors.bad_body');
      return;
    }
    const session = typeof msg.session === 'string' && msg.session.length <= 200 ? msg.session : undefined;
    let principal: SessionPrincipal | null = null;
    if (session) {
      try {
        principal = await principalForToken(this.db.knex, session, sessionCacheOf(this.db.knex));
      } catch (err) {
        close(4401, err instanceof ApiError && err.status === 401 ? err.messageKey : 'errors.unauthorized');
        return;
      }
      if ((LANGS as string[]).includes(principal.lang_code)) c.lang = principal.lang_code as Lang;
    }
    if (msg.chat !== undefined) {
      const chat = Number(msg.chat);
      if (!Number.isSafeInteger(chat) || chat < 1) {
        close(4400, 'errors.bad_body');
        return;
      }
      const token = typeof msg.token === 'string' ? msg.token : undefined;
      try {
        await visitorChat(
          repositoryOf({ knex: this.db.knex, model: this.model, principal: ANONYMOUS, lang: 'uz', trusted: true }, 'chats'),
          chat,
          token,
          principal,
        );
      } catch {
        close(4404, 'errors.notFound');
        return;
      }
      c.role = 'visitor';
      c.chat = chat;
      let set = this.visitors.get(chat);
      if (!set) this.visitors.set(chat, (set = new Set()));
      set.add(c);
    } else {
      if (!principal || !this.mayOperate(principal)) {
        close(4403, 'errors.forbidden');
        return;
      }
      c.role = 'operator';
      c.session = session;
      c.hash = tokenHash(session!);
      c.principal = principal;
      this.operators.add(c);
    }
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify({ type: 'ready', role: c.role }));
    else this.forget(c);
  }

  /** An operator: may call the inbox route — its action and reading the chats (whose messages come with them). */
  private mayOperate(p: Principal): boolean {
    const inbox = this.model.routes.find((r) => r.handler === 'chat.inbox');
    if (inbox?.action !== undefined && !p.actions.has(inbox.action)) return false;
    return repositoryOf({ knex: this.db.knex, model: this.model, principal: p, lang: 'uz' }, 'chats').can('read');
  }

  private forget(c: Client): void {
    this.clients.delete(c);
    this.operators.delete(c);
    if (c.chat !== undefined) {
      const set = this.visitors.get(c.chat);
      set?.delete(c);
      if (set && !set.size) this.visitors.delete(c.chat);
    }
  }

  private ping(): void {
    for (const c of this.clients) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }

  /** The backstop (RECHECK_MS): every operator's session looked at again through the session cache, whose entries are read anew after a minute. */
  private recheck(): void {
    for (const c of this.operators) this.verify(c);
  }
}

/** Attaches the chat's socket to a listening server (api/server.ts; the tests do the same). */
export function attachChat(server: Server, db: Database, model: MetaModel): Promise<ChatHub> {
  return new ChatHub(db, model).attach(server);
}
