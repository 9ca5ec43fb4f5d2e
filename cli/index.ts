import { Command, Option } from 'commander';
import { join } from 'node:path';
import { loadMetadata, MetadataInvalid, formatProblem } from '../api/meta/load.ts';
import { databaseFromEnv, type Database } from '../api/db/connection.ts';
import type { MetaModel } from '../api/meta/types.ts';
import { migrate, rollbackAll } from '../api/db/migrator.ts';
import { seed } from '../seeds/index.ts';
import { makeReference } from './make-reference.ts';
import { makeEntity, makeModule, parseField } from './make-entity.ts';
import { exportBooks, importBooks } from './meta-books.ts';
import { LiveModel, readBooks } from '../api/meta/live.ts';
import { bookProblems } from '../api/meta/books.ts';
import { createUser } from './create-user.ts';
import { fillUzbekCyrillic } from './fill-uk.ts';
import { writeRolesDoc, ROLES_DOC } from './roles-doc.ts';
import { writeRowTypes, ROWS_FILE, SCHEMA_FILE } from './meta-types.ts';
import type { Registry } from '../api/registry.ts';

const program = new Command();
program.name('ecofond').description('ecofond: metadata-driven API, back-office and public site of the environmental fund');

/** Runs a command; a metadata problem prints its file, pointer and reason and exits 1. */
function run<A extends unknown[]>(fn: (...args: A) => Promise<void>) {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      if (err instanceof MetadataInvalid) {
        console.error(`Metadata is invalid (${err.problems.length} problem${err.problems.length === 1 ? '' : 's'}):`);
        for (const p of err.problems) console.error(formatProblem(p));
      } else {
        console.error(err instanceof Error ? err.message : err);
      }
      process.exitCode = 1;
    }
  };
}

/** A long-running command stops cleanly on SIGINT or SIGTERM. */
function stopOnSignals(close: () => Promise<void>): void {
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

program
  .command('serve')
  .description('start the server (API at /api, back-office at /admin/, public site at /)')
  .option('--migrate', 'run pending migrations first')
  .option('--seed', 'seed the action catalogue, roles, administrator and empty reference books first')
  .option('--demo', 'allow the demo administrator password when ECOFOND_ADMIN_PASSWORD is unset')
  .addOption(new Option('-p, --port <port>', 'port').env('PORT'))
  .action(
    run(async (opts: { migrate?: boolean; seed?: boolean; demo?: boolean; port?: string }) => {
      const { startServer } = await import('../api/server.ts');
      const running = await startServer({
        migrate: opts.migrate,
        seed: opts.seed,
        demo: opts.demo,
        port: opts.port ? Number(opts.port) : undefined,
      });
      stopOnSignals(() => running.close());
    }),
  );

program
  .command('work')
  .description(
    'run the background workers alone, without HTTP: the job queue (large exports, imports) and notification deliveries (DATABASE_URL)',
  )
  .action(
    run(async () => {
      // the workers without the HTTP stack: a lighter process for the heavy jobs
      const { startWorkProcess } = await import('../api/workers.ts');
      const working = await startWorkProcess();
      stopOnSignals(() => working.stop());
    }),
  );

program
  .command('backup')
  .description(
    'the embedded database and the files of ECOFOND_DATA_DIR into one archive (.tar.gz), with the server stopped; a PostgreSQL server is backed up with ops/pgbackrest.sh (docs/operations.md)',
  )
  .argument('<archive>', 'the archive to write')
  .action(
    run(async (archive: string) => {
      const { backupEmbedded } = await import('./backup.ts');
      const { dataDir } = await import('../api/db/connection.ts');
      const t = Date.now();
      const m = await backupEmbedded(dataDir(), archive);
      console.log(
        `Backed up ${dataDir()} to ${archive}: the database (last migration ${m.migration ?? 'none'}) and ${m.files} files, in ${((Date.now() - t) / 1000).toFixed(1)} s.`,
      );
    }),
  );

program
  .command('restore')
  .description('an archive of `ecofond backup` into ECOFOND_DATA_DIR (empty, or moved aside with --replace), with the server stopped')
  .argument('<archive>', 'the archive to read')
  .option('--replace', 'move a folder that already holds data aside (to <folder>.replaced-<time>) first')
  .action(
    run(async (archive: string, opts: { replace?: boolean }) => {
      const { restoreEmbedded } = await import('./backup.ts');
      const { dataDir } = await import('../api/db/connection.ts');
      const m = await restoreEmbedded(archive, dataDir(), { replace: opts.replace });
      console.log(
        `Restored the backup of ${m.madeAt} (last migration ${m.migration ?? 'none'}, ${m.files} files) into ${dataDir()}${m.replacedTo ? `; what was there is in ${m.replacedTo}` : ''}.`,
      );
    }),
  );

program
  .command('migrate')
  .description('run pending migrations (DATABASE_URL, or the embedded database in ECOFOND_DATA_DIR)')
  .option('--rollback-all', 'undo every migration instead')
  .action(
    run(async (opts: { rollbackAll?: boolean }) =>
      withDatabase(async (db, model) => {
        if (opts.rollbackAll) {
          await rollbackAll(db.knex, model);
          console.log('Rolled back.');
          return;
        }
        const done = await migrate(db.knex, model);
        console.log(done.length ? `Migrated: ${done.join(', ')}` : 'Already up to date.');
      }),
    ),
  );

program
  .command('seed')
  .description('seed the action catalogue, roles, administrator and empty reference books (safe to repeat)')
  .option('--demo', 'allow the demo administrator password when ECOFOND_ADMIN_PASSWORD is unset')
  .action(
    run(async (opts: { demo?: boolean }) =>
      withDatabase(async (db, model) => {
        await seed(db.knex, model, { adminPassword: process.env.ECOFOND_ADMIN_PASSWORD, demo: opts.demo, log: console.log });
        console.log('Seeded.');
      }),
    ),
  );

program
  .command('meta:validate')
  .description(
    'check every metadata file against the schema and each other, and with DATABASE_URL the reference books the database holds; exits 1 with file, pointer and reason',
  )
  .option('--dir <dir>', 'metadata folder', undefined)
  .action(
    run(async (opts: { dir?: string }) => {
      let model = loadMetadata(opts.dir);
      let books = 0;
      if (process.env.DATABASE_URL) {
        // the books made on the back-office's screen are checked by the same schema and second pass
        const db = databaseFromEnv();
        try {
          const held = await readBooks(db.knex);
          const own = held.flatMap((b) => bookProblems(b, model));
          if (own.length) throw new MetadataInvalid(own);
          model = loadMetadata(opts.dir, held);
          books = held.length;
        } finally {
          await db.close();
        }
      }
      // hooks and handlers the metadata names must exist in a module
      const problems = (await modules()).check(model);
      if (problems.length) throw new MetadataInvalid(problems);
      console.log(
        `Metadata is valid: ${model.entities.size} entities${process.env.DATABASE_URL ? ` (${books} reference book${books === 1 ? '' : 's'} held in the database)` : ''}, ${model.reports.size} reports, ${model.routes.length} module routes, ${model.menu.length} menu sections, ${model.actions.size} action ids.`,
      );
    }),
  );

program
  .command('meta:types')
  .description(
    `write ${ROWS_FILE} (each entity's row type as the engine reads it, and EntityRows) from the metadata, and ${SCHEMA_FILE} (an entity file's type) from its schema`,
  )
  .option('--root <dir>', 'project folder', process.cwd())
  .option('--check', 'only check that both are current (exits 1 naming the first difference when one is not)')
  .action(
    run(async (opts: { root: string; check?: boolean }) => {
      const r = writeRowTypes(loadMetadata(join(opts.root, 'metadata')), opts.root, opts.check);
      if (opts.check && !r.current) throw new Error(`${r.difference}\nThe generated types are out of date: run \`npx ecofond meta:types\``);
      console.log(r.current ? `${ROWS_FILE} and ${SCHEMA_FILE} are up to date.` : `wrote ${ROWS_FILE} and ${SCHEMA_FILE}`);
    }),
  );

program
  .command('meta:export [names...]')
  .description('write the reference books the database holds (all, or the named ones) out as metadata files: entity, captions, menu item')
  .option('--root <dir>', 'project folder to write into', process.cwd())
  .action(
    run(async (names: string[], opts: { root: string }) =>
      withDatabase(async (db) => {
        const written = await exportBooks(db.knex, opts.root, names);
        for (const f of written) console.log(`wrote ${f}`);
        if (!written.length) console.log('The database holds no reference books.');
      }),
    ),
  );

program
  .command('meta:import <names...>')
  .description(
    'take the named entities of the metadata files into the database as reference books (their tables made or altered, action ids granted)',
  )
  .option('--root <dir>', 'project folder to read from', process.cwd())
  .action(
    run(async (names: string[], opts: { root: string }) =>
      withDatabase(async (db) => {
        const live = await LiveModel.open(db.knex, undefined, await modules());
        await importBooks(db.knex, live, opts.root, names);
        console.log(`Imported: ${names.join(', ')}. Running servers on this database take them at once.`);
      }),
    ),
  );

program
  .command('make:entity <name>')
  .description('scaffold an entity: metadata, captions in uz/uk/ru, menu item, migration and a test')
  .requiredOption('--module <module>', 'module (menu section)')
  .requiredOption('--uz <caption>', 'caption in Uzbek (Latin)')
  .requiredOption('--ru <caption>', 'caption in Russian')
  .option('--uk <caption>', 'caption in Uzbek (Cyrillic); transliterated from --uz when omitted')
  .option('--kind <kind>', 'reference or document', 'document')
  .option('--field <spec...>', 'a field: name:type[=ref][:uz caption[:ru caption]], e.g. region_id:ref=regions:Viloyat:Регион', [])
  .option('--root <dir>', 'project folder to write into', process.cwd())
  .action(
    run(
      async (
        name: string,
        opts: { module: string; uz: string; ru: string; uk?: string; kind: 'reference' | 'document'; field: string[]; root: string },
      ) => {
        const written = makeEntity({
          name,
          module: opts.module,
          uz: opts.uz,
          ru: opts.ru,
          uk: opts.uk,
          kind: opts.kind,
          fields: opts.field.map(parseField),
          root: opts.root,
        });
        for (const f of written) console.log(`wrote ${f}`);
        console.log('Run `npx ecofond migrate` (or restart with --migrate), then `npx ecofond seed` for its action ids.');
      },
    ),
  );

program
  .command('make:module <name>')
  .description(
    'scaffold a module: its routes file, api/modules/<name>/ with a handler and a test, its registration, a menu section and captions',
  )
  .requiredOption('--uz <caption>', 'caption in Uzbek (Latin)')
  .requiredOption('--ru <caption>', 'caption in Russian')
  .option('--uk <caption>', 'caption in Uzbek (Cyrillic); transliterated from --uz when omitted')
  .option('--icon <icon>', 'menu icon (MUI icon name)')
  .option('--root <dir>', 'project folder to write into', process.cwd())
  .action(
    run(async (name: string, opts: { uz: string; ru: string; uk?: string; icon?: string; root: string }) => {
      const written = makeModule({ name, ...opts });
      for (const f of written) console.log(`wrote ${f}`);
      console.log(`Add its entities with \`npx ecofond make:entity <name> --module ${name}\`.`);
    }),
  );

program
  .command('make:reference <name>')
  .description('scaffold a reference book: metadata, captions in uz/uk/ru, menu item and migration')
  .option('--module <module>', 'module (menu section)', 'ecofund-sprav')
  .requiredOption('--uz <caption>', 'caption in Uzbek (Latin)')
  .requiredOption('--ru <caption>', 'caption in Russian')
  .option('--uk <caption>', 'caption in Uzbek (Cyrillic); transliterated from --uz when omitted')
  .option('--root <dir>', 'project folder to write into', process.cwd())
  .action(
    run(async (name: string, opts: { module: string; uz: string; ru: string; uk?: string; root: string }) => {
      const written = makeReference({ name, ...opts });
      for (const f of written) console.log(`wrote ${f}`);
      console.log('Run `npx ecofond migrate` (or restart with --migrate) and the book is live.');
    }),
  );

program
  .command('user:create <username>')
  .description('create a user with roles (password from --password or ECOFOND_USER_PASSWORD)')
  .option('--password <password>', 'password (at least 6 characters)')
  .option('--fio <fio>', 'full name')
  .option('--role <code...>', 'role codes, e.g. administrator inspector', ['administrator'])
  .option('--region <id>', 'region id the user is limited to')
  .option('--subject <id>', 'subject id the user is limited to')
  .option('--branch <id>', 'branch id the user is limited to')
  .action(
    run(
      async (
        username: string,
        opts: { password?: string; fio?: string; role: string[]; region?: string; subject?: string; branch?: string },
      ) => {
        await withDatabase(async (db) => {
          const id = await createUser(db.knex, {
            username,
            password: opts.password ?? process.env.ECOFOND_USER_PASSWORD ?? '',
            fio: opts.fio,
            roles: opts.role,
            region_id: num(opts.region),
            subject_id: num(opts.subject),
            branch_id: num(opts.branch),
          });
          console.log(`User ${username} created (id ${id}).`);
        });
      },
    ),
  );

program
  .command('roles:doc')
  .description('write docs/roles.md from the system roles (seeds/roles.ts) and the metadata')
  .option('--check', 'only check that docs/roles.md is up to date (exits 1 when it is not)')
  .action(
    run(async (opts: { check?: boolean }) => {
      const ok = writeRolesDoc(loadMetadata(), opts.check);
      if (opts.check && !ok) throw new Error(`${ROLES_DOC} is out of date: run \`npx ecofond roles:doc\``);
      console.log(opts.check ? `${ROLES_DOC} is up to date.` : `wrote ${ROLES_DOC}`);
    }),
  );

program
  .command('i18n:fill-uk')
  .description(
    'derive the Uzbek Cyrillic (uk) catalogues from Uzbek Latin (uz): add missing captions, re-derive derived ones, keep hand-written ones (docs/uzbek-cyrillic.md)',
  )
  .option('--root <dir>', 'project folder', process.cwd())
  .option('--check', 'only check: exit 1 when a uk catalogue is missing keys, out of date, or has a hand-written value whose uz changed')
  .option('--derive <keys...>', 'derive these keys (or key prefixes ending in ".") even where written by hand')
  .option('--keep <keys...>', 'keep the hand-written uk of these keys (or prefixes) for their changed uz')
  .action(
    run(async (opts: { root: string; check?: boolean; derive?: string[]; keep?: string[] }) => {
      const r = fillUzbekCyrillic(opts.root, opts);
      const verb = opts.check ? 'would be' : 'were';
      if (r.added.length) console.log(`${r.added.length} caption(s) ${verb} added:\n  ${r.added.join('\n  ')}`);
      if (r.rederived.length) console.log(`${r.rederived.length} caption(s) ${verb} re-derived:\n  ${r.rederived.join('\n  ')}`);
      if (r.removed.length) console.log(`${r.removed.length} caption(s) gone from uz ${verb} removed:\n  ${r.removed.join('\n  ')}`);
      for (const s of r.stale)
        console.log(
          `hand-written, its uz changed — review it, then --keep or --derive ${s.key.split(': ')[1]}:\n  ${s.key}\n    uz was: ${s.was}\n    uz now: ${s.uz}\n    uk:     ${s.uk}`,
        );
      console.log(
        `${r.hand} hand-written caption(s) kept; ${r.changed.length ? `${r.changed.join(', ')} ${opts.check ? 'out of date' : 'written'}` : 'uk catalogues up to date'}.`,
      );
      if (opts.check && (r.changed.length || r.stale.length))
        throw new Error('Uzbek Cyrillic catalogues are out of date: run `npx ecofond i18n:fill-uk`');
    }),
  );

/**
 * The modules' registry (api/registry.ts), built once for the command that needs it: the hooks a
 * seed's or a book's writes run, the names meta:validate checks. Imported when first asked, so the
 * commands that need no module load none.
 */
let registry: Promise<Registry> | undefined;
function modules(): Promise<Registry> {
  registry ??= import('../api/registry.ts').then((r) => r.buildRegistry());
  return registry;
}

/** Opens the configured database with the checked metadata (bound to the modules' registry), runs fn, and closes it. */
async function withDatabase(fn: (db: Database, model: MetaModel) => Promise<void>): Promise<void> {
  const model = (await modules()).bind(loadMetadata());
  const db = databaseFromEnv();
  try {
    await fn(db, model);
  } finally {
    await db.close();
  }
}

const num = (v: string | undefined) => (v === undefined ? null : Number(v));

await program.parseAsync(process.argv);
