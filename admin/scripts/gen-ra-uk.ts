/**
 * Writes admin/src/i18n/ra-uk.json, react-admin's messages in Uzbek Cyrillic (`uk` on the wire),
 * from the Uzbek Latin catalogue ra-uz.json through the project's transliterator. Entries already in
 * ra-uk.json are kept (they may have been reviewed by a person); only missing keys are added and
 * keys gone from ra-uz.json are dropped. `--force` regenerates every entry.
 *
 *   node --import tsx admin/scripts/gen-ra-uk.ts [--force]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { latinToCyrillic } from '../../api/i18n/transliterate.ts';

type Tree = { [k: string]: string | Tree };

const dir = fileURLToPath(new URL('../src/i18n/', import.meta.url));
const uz = JSON.parse(readFileSync(`${dir}ra-uz.json`, 'utf8')) as Tree;
const ukPath = `${dir}ra-uk.json`;
const old = (existsSync(ukPath) && !process.argv.includes('--force') ? JSON.parse(readFileSync(ukPath, 'utf8')) : {}) as Tree;

let added = 0;
function walk(src: Tree, prev: Tree | undefined): Tree {
  const out: Tree = {};
  for (const [k, v] of Object.entries(src)) {
    if (typeof v === 'string') {
      const kept = prev?.[k];
      if (typeof kept === 'string') out[k] = kept;
      else { out[k] = v.split(' |||| ').map(latinToCyrillic).join(' |||| '); added += 1; }
    } else {
      const p = prev?.[k];
      out[k] = walk(v, typeof p === 'object' ? p : undefined);
    }
  }
  return out;
}

const next = walk(uz, old);
writeFileSync(ukPath, `${JSON.stringify(next, null, 2)}\n`);
console.log(`ra-uk.json: ${added} entr${added === 1 ? 'y' : 'ies'} transliterated; review them.`);
