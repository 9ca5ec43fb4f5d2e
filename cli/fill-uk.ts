import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { latinToCyrillic, legacyLatinToCyrillic } from '../api/i18n/transliterate.ts';

/**
 * Derives the Uzbek Cyrillic (`uk`) catalogues from the Uzbek Latin (`uz`) ones, see
 * docs/uzbek-cyrillic.md. A uk value is either derived (written by this command from the uz one)
 * or written by hand; derived values follow their uz source and the transliteration rules, hand
 * values are never overwritten unless asked (`derive`). Which is which is recorded in
 * UK_STATE: for a derived value a hash of what was written (so an edit by hand is noticed), for a
 * hand value the uz and uk it was written for (so a later change of the uz is reported).
 */

/** Uzbek Latin catalogue → its Uzbek Cyrillic one, relative to the project folder. */
export const UK_CATALOGUES: [uz: string, uk: string][] = [
  ['metadata/i18n/uz.json', 'metadata/i18n/uk.json'],
  ['admin/src/i18n/uz.json', 'admin/src/i18n/uk.json'],
  ['admin/src/i18n/ra-uz.json', 'admin/src/i18n/ra-uk.json'],
  ['public-site/src/i18n/uz.json', 'public-site/src/i18n/uk.json'],
  ['field/src/i18n/uz.json', 'field/src/i18n/uk.json'],
];

export const UK_STATE = 'metadata/i18n/uk-derived.json';

type Tree = { [k: string]: string | Tree };
type Hand = { uz: string; uk: string };
type CatalogueState = { derived: Record<string, string>; hand: Record<string, Hand> };
type State = { about: string; catalogues: Record<string, CatalogueState> };

export type FillOptions = {
  /** only compute; write nothing */
  check?: boolean;
  /** keys (or key prefixes ending in ".") whose uk is derived even if written by hand */
  derive?: string[];
  /** accept the hand-written uk of these keys (or prefixes) for their current uz */
  keep?: string[];
};

export type FillReport = {
  /** catalogues (uk paths) whose content changes (or would change, with check) */
  changed: string[];
  added: string[];
  rederived: string[];
  removed: string[];
  /** hand-written values whose uz changed since they were written: to review */
  stale: { key: string; uz: string; was: string; uk: string }[];
  hand: number;
};

const ABOUT =
  'Written by `npx ecofond i18n:fill-uk` (docs/uzbek-cyrillic.md): which uk captions are derived from uz (hash of the value written) and which are written by hand (the uz and uk they were written for). Do not edit by hand.';

const hash = (s: string) => createHash('sha1').update(s).digest('hex').slice(0, 12);
const PLURAL = ' |||| ';
/** Plural forms (react-admin's " |||| ") are transliterated one by one. */
export const derive = (uz: string) => uz.split(PLURAL).map(latinToCyrillic).join(PLURAL);
/** What the letter-by-letter transliteration before docs/uzbek-cyrillic.md wrote: such values count as derived. */
const legacy = (uz: string) => uz.split(PLURAL).map(legacyLatinToCyrillic).join(PLURAL);

function flatten(t: Tree, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  for (const [k, v] of Object.entries(t)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out[key] = v;
    else flatten(v, key, out);
  }
  return out;
}

/**
 * The uk tree with `values` (flat keys of uz), keeping the uk file's own order: existing entries
 * stay where they are, a new one goes after the entry that precedes it in uz, entries gone from
 * uz are dropped.
 */
function rebuild(uz: Tree, uk: Tree | undefined, values: Record<string, string>, prefix = ''): Tree {
  const out: Tree = {};
  const uzKeys = Object.keys(uz);
  const order = Object.keys(uk ?? {}).filter((k) => k in uz);
  for (let i = 0; i < uzKeys.length; i++) {
    const k = uzKeys[i];
    if (order.includes(k)) continue;
    const prev = uzKeys
      .slice(0, i)
      .reverse()
      .find((p) => order.includes(p));
    order.splice(prev === undefined ? 0 : order.indexOf(prev) + 1, 0, k);
  }
  for (const k of order) {
    const key = prefix ? `${prefix}.${k}` : k;
    const v = uz[k];
    const old = uk?.[k];
    out[k] = typeof v === 'string' ? values[key] : rebuild(v, typeof old === 'object' ? old : undefined, values, key);
  }
  return out;
}

const matches = (key: string, list: string[] | undefined) => !!list?.some((p) => (p.endsWith('.') ? key.startsWith(p) : key === p));
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

export function readState(root: string): State {
  const path = join(root, UK_STATE);
  return existsSync(path) ? readJson(path) : { about: ABOUT, catalogues: {} };
}

/** Fills and re-derives every uk catalogue (or only checks them); deterministic and idempotent. */
export function fillUzbekCyrillic(root: string, opts: FillOptions = {}): FillReport {
  const state = readState(root);
  const next: State = { about: ABOUT, catalogues: {} };
  const report: FillReport = { changed: [], added: [], rederived: [], removed: [], stale: [], hand: 0 };
  const writes: [string, string][] = [];
  for (const [uzPath, ukPath] of UK_CATALOGUES) {
    const uzTree = readJson(join(root, uzPath)) as Tree;
    const ukFile = join(root, ukPath);
    const ukText = existsSync(ukFile) ? readFileSync(ukFile, 'utf8') : '';
    const ukTree = (ukText ? JSON.parse(ukText) : {}) as Tree;
    const uz = flatten(uzTree);
    const uk = flatten(ukTree);
    const was = state.catalogues[ukPath] ?? { derived: {}, hand: {} };
    const now: CatalogueState = { derived: {}, hand: {} };
    const values: Record<string, string> = {};
    for (const [key, source] of Object.entries(uz)) {
      const fresh = derive(source);
      const current = uk[key];
      const hand = was.hand[key];
      let isDerived: boolean;
      if (current === undefined || matches(key, opts.derive) || current === fresh) isDerived = true;
      else if (key in was.derived) isDerived = was.derived[key] === hash(current);
      else if (hand) isDerived = false;
      else isDerived = current === legacy(source);
      if (isDerived) {
        values[key] = fresh;
        now.derived[key] = hash(fresh);
        if (current === undefined) report.added.push(`${ukPath}: ${key}`);
        else if (current !== fresh) report.rederived.push(`${ukPath}: ${key}`);
        continue;
      }
      values[key] = current;
      report.hand++;
      if (hand && hand.uk === current && hand.uz !== source && !matches(key, opts.keep)) {
        // the uz changed, the hand-written uk did not: keep it, report it, remember what it was written for
        report.stale.push({ key: `${ukPath}: ${key}`, uz: source, was: hand.uz, uk: current });
        now.hand[key] = hand;
      } else {
        now.hand[key] = { uz: source, uk: current };
      }
    }
    for (const key of Object.keys(uk)) if (!(key in uz)) report.removed.push(`${ukPath}: ${key}`);
    next.catalogues[ukPath] = now;
    const text = json(rebuild(uzTree, ukTree, values));
    if (text !== ukText) {
      report.changed.push(ukPath);
      writes.push([ukFile, text]);
    }
  }
  if (!opts.check) {
    for (const [path, text] of writes) writeFileSync(path, text);
    const stateText = json(next);
    const statePath = join(root, UK_STATE);
    if (!existsSync(statePath) || readFileSync(statePath, 'utf8') !== stateText) writeFileSync(statePath, stateText);
  }
  return report;
}
