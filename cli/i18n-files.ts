import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flattenCaptions } from '../api/meta/captions.ts';
import type { Lang } from '../api/meta/types.ts';

/** Reads and writes metadata/i18n/<lang>.json as flat maps, writing them back nested and sorted. */
export function readCaptions(root: string, lang: Lang): Record<string, string> {
  return flattenCaptions(JSON.parse(readFileSync(join(root, 'metadata', 'i18n', `${lang}.json`), 'utf8')));
}

export function writeCaptions(root: string, lang: Lang, flat: Record<string, string>): void {
  const tree: Record<string, unknown> = {};
  for (const key of Object.keys(flat).sort()) {
    const parts = key.split('.');
    let node = tree;
    for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = flat[key];
  }
  writeFileSync(join(root, 'metadata', 'i18n', `${lang}.json`), `${JSON.stringify(tree, null, 2)}\n`);
}
