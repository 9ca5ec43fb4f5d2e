import { cpSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_META_DIR, loadMetadata } from '../../api/meta/load.ts';
import type { MetaModel } from '../../api/meta/types.ts';

/**
 * The project's metadata plus extra entity files and captions, written to a temporary folder and
 * loaded through the same schema and checks as the real tree.
 */
export function fixtureMetaDir(entities: object[], captions: Record<string, Record<string, string>> = {}): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ecofond-meta-')), 'metadata');
  cpSync(DEFAULT_META_DIR, dir, { recursive: true });
  mkdirSync(join(dir, 'entities', 'fixtures'), { recursive: true });
  for (const e of entities)
    writeFileSync(join(dir, 'entities', 'fixtures', `${(e as { name: string }).name}.json`), JSON.stringify(e, null, 2));
  for (const lang of ['uz', 'uk', 'ru']) {
    const file = join(dir, 'i18n', `${lang}.json`);
    const tree = JSON.parse(readFileSync(file, 'utf8'));
    // dotted keys may sit at the top level: the loader reads them as written
    Object.assign(tree, captions[lang] ?? captions.uz ?? {});
    writeFileSync(file, JSON.stringify(tree));
  }
  return dir;
}

export function fixtureModel(entities: object[], captions: Record<string, Record<string, string>> = {}): MetaModel {
  return loadMetadata(fixtureMetaDir(entities, captions));
}
