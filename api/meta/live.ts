import type { Knex } from 'knex';
import pg from 'pg';
import { APP_NAME } from '../db/connection.ts';
import type { MetaModel } from './types.ts';
import { DEFAULT_META_DIR, loadMetadata, MetadataInvalid, type DbBook, type MetaProblem } from './load.ts';

/**
 * What start-up hands a model it serves (api/registry.ts's registry): a check of the names the
 * metadata gives the modules (hooks, handlers, form schemas) and the binding of the model to them,
 * asked of every model built here before it may be swapped in.
 */
export interface ModelSetup {
  check(model: MetaModel): MetaProblem[];
  bind(model: MetaModel): MetaModel;
}

/** The channel a process tells the others on that the database-held books changed. */
export const META_CHANNEL = 'ecofond_meta';

/**
 * The model the server answers with, reloadable at run time (docs/reference-books.md). A reload
 * builds the new model whole — files and the database's books, the schema, the second pass, the
 * modules' names — and lets every `prepare` listener build what it derives (the app's routes) before
 * one assignment swaps it in; a request reads `current` once when it starts and keeps that model to
 * its end, so a swap never changes a request in flight. A model that does not check is never swapped in.
 */
export class LiveModel {
  current: MetaModel;
  private prepares: ((m: MetaModel) => void)[] = [];
  private listener?: pg.Client;
  private channels = new Map<string, Subscriber>();
  private reloading: Promise<MetaModel> | undefined;
  private again = false;

  readonly dir: string;

  constructor(
    model: MetaModel,
    readonly knex: Knex,
    dir?: string,
    private setup?: ModelSetup,
  ) {
    this.dir = dir ?? model.dir ?? DEFAULT_META_DIR;
    this.current = setup ? setup.bind(model) : model;
    lives.add(new WeakRef(this));
  }

  /** Opens the model of the files and the database's books (the books table may not exist yet). */
  static async open(knex: Knex, dir: string = DEFAULT_META_DIR, setup?: ModelSetup): Promise<LiveModel> {
    const live = new LiveModel(loadMetadata(dir), knex, dir, setup);
    await live.reload();
    return live;
  }

  /** The modules every model built from now on is checked against and bound to; the current model is bound at once. */
  use(setup: ModelSetup): void {
    this.setup = setup;
    setup.bind(this.current);
  }

  /** The setup models are built with (start-up's registry), if any. */
  get modelSetup(): ModelSetup | undefined {
    return this.setup;
  }

  /** Runs on every new model before it is swapped in; what throws stops the swap. */
  onPrepare(fn: (m: MetaModel) => void): void {
    this.prepares.push(fn);
    fn(this.current);
  }

  /** The model of the files with these books, checked; throws MetadataInvalid with every problem. */
  build(books: DbBook[]): MetaModel {
    return buildModel(this.dir, books, this.setup);
  }

  /** Swaps in a model already built and checked. */
  swap(model: MetaModel): void {
    for (const fn of this.prepares) fn(model);
    this.current = model;
  }

  /** Reads the database's books, builds and swaps; reloads asked for while one runs coalesce into one more. */
  reload(): Promise<MetaModel> {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        let model: MetaModel;
        do {
          this.again = false;
          model = this.build(await readBooks(this.knex));
          this.swap(model);
        } while (this.again);
        return model;
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  /**
   * Another channel on the same LISTEN connection (the sessions' invalidations, docs/sessions.md):
   * `notify` gets each payload; `away(true)` when the connection drops (notifications may be
   * missed until it is back), `away(false)` when it is listening again.
   */
  subscribe(channel: string, sub: Subscriber): void {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel name "${channel}"`);
    this.channels.set(channel, sub);
    if (this.listener)
      this.listener.query(`LISTEN ${channel}`).then(
        () => sub.away?.(false),
        () => undefined,
      );
  }

  /** Whether a LISTEN connection is open (a real server's process; embedded PGlite is one process). */
  get listening(): boolean {
    return !!this.listener;
  }

  /**
   * Listens for other processes' changes on a real PostgreSQL server (LISTEN on its own connection,
   * reconnecting when it drops); embedded PGlite is one process and reloads in-process. The
   * connection holds the only session state the server uses: behind a transaction-pooling proxy
   * (PgBouncer) give it a direct URL (DATABASE_LISTEN_URL, docs/sessions.md).
   */
  async listen(url: string, log: (s: string) => void = () => undefined): Promise<void> {
    const connect = async () => {
      const client = new pg.Client({ connectionString: url, application_name: APP_NAME.listen });
      client.on('notification', (n) => {
        if (n.channel === META_CHANNEL) {
          this.reload().catch((err) => log(`Reference books: reload failed: ${(err as Error).message}`));
          return;
        }
        this.channels.get(n.channel)?.notify(n.payload);
      });
      client.on('error', () => undefined);
      client.on('end', () => {
        if (this.listener !== client) return;
        this.listener = undefined;
        for (const sub of this.channels.values()) sub.away?.(true);
        setTimeout(() => {
          connect()
            .then(() => this.reload())
            .catch(() => undefined);
        }, 1000).unref();
      });
      await client.connect();
      for (const channel of [META_CHANNEL, ...this.channels.keys()]) await client.query(`LISTEN ${channel}`);
      this.listener = client;
      for (const sub of this.channels.values()) sub.away?.(false);
    };
    await connect();
  }

  async close(): Promise<void> {
    for (const r of lives) if (r.deref() === this) lives.delete(r);
    const c = this.listener;
    this.listener = undefined;
    for (const sub of this.channels.values()) sub.away?.(true);
    await c?.end().catch(() => undefined);
  }
}

/**
 * The model of the files in dir with these books, checked (the modules' names too, given a setup,
 * and bound to them); throws MetadataInvalid with every problem.
 */
export function buildModel(dir: string, books: DbBook[], setup?: ModelSetup): MetaModel {
  const model = loadMetadata(dir, books);
  const problems = setup?.check(model) ?? [];
  if (problems.length) throw new MetadataInvalid(problems);
  return setup ? setup.bind(model) : model;
}

/** This process's live models (an app's, a second app's in a test): each reloads after a book change commits. */
const lives = new Set<WeakRef<LiveModel>>();

/**
 * After this transaction commits, every live model of this process that is not listening reloads
 * (on PGlite, or with its LISTEN connection down; a book changed through the generic routes as well
 * as the screen's); the listening ones — this process's too — reload once, on hearing the NOTIFY
 * the change sent. A reload that fails (a model on a closed pool) is left: it keeps the model it had.
 */
export function reloadAfterCommit(trx: Knex.Transaction): void {
  const done = trx.executionPromise;
  if (!done) return;
  done.then(
    () => {
      for (const r of lives) {
        const live = r.deref();
        if (!live) {
          lives.delete(r);
          continue;
        }
        if (!live.listening) live.reload().catch(() => undefined);
      }
    },
    () => undefined,
  );
}

/** A listener of a channel on the model's LISTEN connection (LiveModel.subscribe). */
export interface Subscriber {
  notify(payload: string | undefined): void;
  away?(away: boolean): void;
}

/** The database's books; none when the books table is not there yet (before the migration). */
export async function readBooks(knex: Knex): Promise<DbBook[]> {
  if (!(await knex.schema.hasTable('meta_books'))) return [];
  const rows = await knex('meta_books').orderBy('id').select('name', 'definition', 'captions', 'menu');
  return rows.map(
    (r: { name: string; definition: Record<string, unknown>; captions: DbBook['captions']; menu: DbBook['menu'] | null }) => ({
      name: r.name,
      definition: r.definition,
      captions: r.captions,
      ...(r.menu ? { menu: r.menu } : {}),
    }),
  );
}
