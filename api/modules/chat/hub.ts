import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import pg from 'pg';
import { APP_NAME } from '../../db/connection.ts';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Database } from '../../db/connection.ts';
import type { MetaModel } from '../../meta/types.ts';
import { principalForToken } from '../../auth/sessions.ts';
import type { Principal } from '../../auth/ability.ts';
import { Repository } from '../../engine/repository.ts';
import { CHAT_CHANNEL } from './events.ts';
import { visitorChat } from './routes.ts';

/** Where the socket answers (metadata/modules/chat.json declares it, so the catalogue lists it). */
export const CHAT_SOCKET_PATH = '/api/chat/socket';
/** A socket must say who it is within this time. */
const HELLO_MS = 10_000;
/** Pings keep proxies from closing quiet sockets and find dead ones. */
const PING_MS = 30_000;
/** Operators' sessions are looked at again this often: a revoked or expired session's socket closes. */
const RECHECK_MS = 60_000;
/** A socket that does not read what it is sent is dropped past this many bytes waiting. */
const MAX_BUFFERED = 1 << 20;

interface Client {
  ws: WebSocket;
  alive: boolean;
  /** an operator: every chat's events; a visitor: their chat's only */
  role?: 'operator' | 'visitor';
  chat?: number;
  session?: string;
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
  private listener?: pg.Client;
  private unlisten?: () => Promise<void>;
  private timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(private readonly db: Database, private readonly model: MetaModel) {}

  /** Starts listening for events and answers upgrades at the socket's path on the server. */
  async attach(server: Server): Promise<this> {
    await this.listen();
    server.on('upgrade', this.onUpgrade);
    this.timers.push(setInterval(() => this.ping(), PING_MS).unref(), setInterval(() => void this.recheck(), RECHECK_MS).unref());
    return this;
  }

  /** How many sockets are open (operators, visitors) — for tests and the bench. */
  get counts() {
    let visitors = 0;
    for (const s of this.visitors.values()) visitors += s.size;
    return { operators: this.operators.size, visitors, all: this.clients.size };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    for (const c of this.clients) c.ws.terminate();
    this.wss.close();
    await this.unlisten?.().catch(() => {});
    await this.listener?.end().catch(() => {});
  }

  private async listen(): Promise<void> {
    if (this.db.kind === 'pglite') {
      this.unlisten = await this.db.pglite!.listen(CHAT_CHANNEL, (payload) => this.dispatch(payload));
      return;
    }
    // a connection of its own to the primary, not a pooled one (DATABASE_LISTEN_URL when the pool is a pgbouncer)
    const client = new pg.Client({ connectionString: this.db.listenUrl ?? this.db.url, application_name: APP_NAME.listen });
    client.on('notification', (n) => { if (n.channel === CHAT_CHANNEL && n.payload) this.dispatch(n.payload); });
    client.on('error', () => { /* reconnected on 'end' */ });
    client.on('end', () => {
      if (this.closed) return;
      // events written while the listener was away are caught up by the clients (`?after=`) when they reconnect
      for (const c of this.clients) c.ws.close(1012, 'restart');
      setTimeout(() => void this.listen().catch(() => {}), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${CHAT_CHANNEL}`);
    this.listener = client;
  }

  /** An event from the database to the sockets it concerns, sent as the text it came as. */
  private dispatch(payload: string): void {
    let chat: number;
    try { chat = Number((JSON.parse(payload) as { chat: number }).chat); } catch { return; }
    for (const c of this.operators) this.send(c, payload);
    for (const c of this.visitors.get(chat) ?? []) this.send(c, payload);
  }

  private send(c: Client, text: string): void {
    if (c.ws.bufferedAmount > MAX_BUFFERED) { c.ws.terminate(); return; }
    c.ws.send(text);
  }

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== CHAT_SOCKET_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, req));
  };

  private connected(ws: WebSocket, req: IncomingMessage): void {
    const c: Client = { ws, alive: true };
    this.clients.add(c);
    const hello = setTimeout(() => ws.close(4401, 'hello expected'), HELLO_MS);
    ws.on('pong', () => { c.alive = true; });
    ws.on('close', () => { clearTimeout(hello); this.forget(c); });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => {
      if (c.role) {
        // the socket only listens; a client's "ping" is answered so it can tell a dead link
        if (String(data) === '{"type":"ping"}') ws.send('{"type":"pong"}');
        return;
      }
      clearTimeout(hello);
      void this.hello(c, String(data), req).catch(() => ws.close(4400, 'bad hello'));
    });
  }

  private async hello(c: Client, text: string, _req: IncomingMessage): Promise<void> {
    const msg = JSON.parse(text) as { type?: string; session?: unknown; chat?: unknown; token?: unknown };
    if (msg.type !== 'hello') { c.ws.close(4400, 'hello expected'); return; }
    const session = typeof msg.session === 'string' && msg.session.length <= 200 ? msg.session : undefined;
    let principal: Principal | null = null;
    if (session) {
      try { principal = await principalForToken(this.db.knex, session); } catch { c.ws.close(4401, 'session'); return; }
    }
    if (msg.chat !== undefined) {
      const chat = Number(msg.chat);
      if (!Number.isSafeInteger(chat) || chat < 1) { c.ws.close(4400, 'chat'); return; }
      const token = typeof msg.token === 'string' ? msg.token : undefined;
      try { await visitorChat(this.db.knex, chat, token, principal); } catch { c.ws.close(4404, 'chat'); return; }
      c.role = 'visitor';
      c.chat = chat;
      let set = this.visitors.get(chat);
      if (!set) this.visitors.set(chat, (set = new Set()));
      set.add(c);
    } else {
      if (!principal || !this.mayOperate(principal)) { c.ws.close(4403, 'forbidden'); return; }
      c.role = 'operator';
      c.session = session;
      this.operators.add(c);
    }
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify({ type: 'ready', role: c.role }));
    else this.forget(c);
  }

  /** An operator: may call the inbox route — its action and reading the chats (whose messages come with them). */
  private mayOperate(p: Principal): boolean {
    const inbox = this.model.routes.find((r) => r.handler === 'chat.inbox');
    if (inbox?.action !== undefined && !p.actions.has(inbox.action)) return false;
    return new Repository({ knex: this.db.knex, model: this.model, principal: p, lang: 'uz' }, this.model.entities.get('chats')!).can('read');
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
      if (!c.alive) { c.ws.terminate(); continue; }
      c.alive = false;
      c.ws.ping();
    }
  }

  private async recheck(): Promise<void> {
    for (const c of [...this.operators]) {
      try {
        const p = await principalForToken(this.db.knex, c.session!);
        if (!this.mayOperate(p)) c.ws.close(4403, 'forbidden');
      } catch { c.ws.close(4401, 'session'); }
    }
  }
}

/** Attaches the chat's socket to a listening server (api/server.ts; the tests do the same). */
export function attachChat(server: Server, db: Database, model: MetaModel): Promise<ChatHub> {
  return new ChatHub(db, model).attach(server);
}
