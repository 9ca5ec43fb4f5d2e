import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Knex } from 'knex';
import { bookFile, fieldCaption, loadMetadata, type DbBook } from '../api/meta/load.ts';
import type { Lang } from '../api/meta/types.ts';
import { LANGS } from '../api/meta/types.ts';
import { readBooks, type LiveModel } from '../api/meta/live.ts';
import { saveBook } from '../api/engine/books.ts';
import { ANONYMOUS, type Principal } from '../api/auth/ability.ts';
import { readCaptions, writeCaptions } from './i18n-files.ts';

/**
 * `meta:export` and `meta:import` (docs/reference-books.md): the database-held reference books
 * written out as ordinary metadata files — the entity file, its captions in the three catalogues,
 * its menu item — for review and version control; and files taken into the database as books.
 * A book in both places is one book: the loader takes the database's.
 */

/** Writes every database-held book (or the named ones) into the project at root; returns the files written. */
export async function exportBooks(knex: Knex, root: string, names?: string[]): Promise<string[]> {
  const books = (await readBooks(knex)).filter((b) => !names?.length || names.includes(b.name));
  const metaDir = join(root, 'metadata');
  const written = new Set<string>();
  for (const b of books) {
    const module = String(b.definition.module);
    const dir = join(metaDir, 'entities', module);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${b.name}.json`);
    writeFileSync(file, `${JSON.stringify({ $schema: '../../schema/entity.schema.json', ...b.definition }, null, 2)}\n`);
    written.add(file);
  }
  for (const lang of LANGS) {
    if (!books.length) break;
    const flat = readCaptions(root, lang);
    for (const b of books) Object.assign(flat, b.captions[lang] ?? {});
    writeCaptions(root, lang, flat);
    written.add(join(metaDir, 'i18n', `${lang}.json`));
  }
  const menuFile = join(metaDir, 'menu.json');
  if (books.some((b) => b.menu) && existsSync(menuFile)) {
    const menu = JSON.parse(readFileSync(menuFile, 'utf8')) as { sections: { route: string; children: Record<string, unknown>[] }[] };
    for (const b of books) {
      if (!b.menu) continue;
      const section = menu.sections.find((s) => s.route === `/${b.menu!.section}`);
      if (!section) continue;
      const at = section.children.findIndex((c) => c.entity === b.name);
      const ordering =
        b.menu.ordering ??
        (at >= 0 ? section.children[at].ordering : Math.max(0, ...section.children.map((c) => Number(c.ordering ?? 0))) + 10);
      const item = {
        route: b.name,
        caption: b.definition.caption,
        action: (b.definition.access as { read: number }).read,
        entity: b.name,
        ordering,
      };
      if (at >= 0) section.children[at] = item;
      else section.children.push(item);
    }
    writeFileSync(menuFile, `${JSON.stringify(menu, null, 2)}\n`);
    written.add(menuFile);
  }
  return [...written].map((f) => relative(root, f));
}

/**
 * The books the metadata files at root hold, as the database keeps them: the entity file as it is,
 * the captions it uses from the three catalogues, its menu section and place.
 */
export function booksFromFiles(root: string, names: string[]): DbBook[] {
  const metaDir = join(root, 'metadata');
  const model = loadMetadata(metaDir);
  return names.map((name) => {
    const e = model.entities.get(name);
    if (!e) throw new Error(`no entity "${name}" in ${metaDir}`);
    const raw = JSON.parse(readFileSync(join(root, e.file), 'utf8')) as Record<string, unknown>;
    delete raw.$schema;
    const keys = new Set<string>([e.caption]);
    for (const [n, f] of Object.entries(e.fields)) {
      keys.add(fieldCaption(n, f));
      if (f.type === 'enum') for (const v of f.values ?? []) keys.add(`enums.${n}.${v}`);
    }
    const captions = Object.fromEntries(
      LANGS.map((lang) => [
        lang,
        Object.fromEntries([...keys].filter((k) => k in model.captions[lang]).map((k) => [k, model.captions[lang][k]])),
      ]),
    ) as Record<Lang, Record<string, string>>;
    let menu: DbBook['menu'];
    for (const s of model.menu) {
      const c = s.children.find((x) => x.entity === name);
      if (c) menu = { section: s.route.slice(1), ordering: c.ordering };
    }
    return { name, definition: raw, captions, ...(menu ? { menu } : {}) };
  });
}

/** Takes the named books of the files at root into the database (made or changed); returns their names. */
export async function importBooks(
  knex: Knex,
  live: LiveModel,
  root: string,
  names: string[],
  userId: number | null = null,
): Promise<string[]> {
  // the command line's own change (whoever may run it may change the database): trusted, audited under the user given
  const principal: Principal = { ...ANONYMOUS, id: userId ?? 0, actions: new Set() };
  for (const book of booksFromFiles(root, names)) await saveBook({ knex, live, principal, trusted: true }, book, { fromFiles: true });
  return names;
}

export { bookFile };
