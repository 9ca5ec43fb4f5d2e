import type { Knex } from 'knex';
import type { FieldMeta, MetaModel } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { scopeConditions } from '../auth/ability.ts';
import { refTable } from './sql.ts';
import type { FieldError } from '../kernel/errors.ts';

/**
 * What written rows refer to must be there and be the caller's to refer to: a referenced row that
 * does not exist — or lies outside the caller's own scope (a region's user naming another region's
 * subject) — is "not found" beside the field; a file must be of a type the field accepts and within
 * its size. One query a field for all the rows (an import's thousands included).
 */

const FILE_TYPES = new Set(['file', 'image', 'files']);

/** Whether a MIME type is one of a field's accepted types (`image/*` matches every image). */
export function acceptsMime(accept: string[] | undefined, mime: string): boolean {
  if (!accept?.length) return true;
  return accept.some((a) => (a.endsWith('/*') ? mime.startsWith(a.slice(0, -1)) : a === mime));
}

export interface ReferenceCheck {
  model: MetaModel;
  /** the caller, whose scope limits what they may refer to; null for writes on the caller's behalf */
  principal: Principal | null;
}

interface Located {
  row: Record<string, unknown>;
  key: string;
}

const idsOf = (v: unknown): number[] => (Array.isArray(v) ? v : [v]) as number[];

/** Field errors of rows' references, keyed by `<prefix of the row><field>` (children's as `lines.0.product_id`). */
export async function referenceErrors(
  trx: Knex | Knex.Transaction,
  c: ReferenceCheck,
  rows: Located[],
  fields: Record<string, FieldMeta>,
): Promise<Record<string, FieldError>> {
  const errors: Record<string, FieldError> = {};
  for (const [name, f] of Object.entries(fields)) {
    const using = rows.filter(({ row }) => row[name] != null);
    if (!using.length) continue;
    if (f.type === 'ref' || f.type === 'refs') {
      const ids = [...new Set(using.flatMap(({ row }) => idsOf(row[name])))];
      const found = new Set<number>();
      for (let i = 0; i < ids.length; i += 5000) {
        const q = trx(`${refTable(c.model, f.ref!)} as t`).whereIn('t.id', ids.slice(i, i + 5000));
        const target = c.model.entities.get(f.ref!);
        if (target && c.principal)
          for (const [col, value] of Object.entries(scopeConditions(target, c.principal))) q.where(`t.${col}`, value);
        for (const id of await q.pluck('t.id')) found.add(Number(id));
      }
      for (const { row, key } of using)
        if (!idsOf(row[name]).every((id) => found.has(id))) errors[`${key}${name}`] = { key: 'validation.ref_not_found' };
    } else if (FILE_TYPES.has(f.type)) {
      const ids = [...new Set(using.flatMap(({ row }) => idsOf(row[name])))];
      const files = new Map<number, { mime: string; size: number }>();
      for (let i = 0; i < ids.length; i += 5000) {
        for (const r of await trx('resources')
          .whereIn('id', ids.slice(i, i + 5000))
          .select('id', 'mime', 'size'))
          files.set(Number(r.id), { mime: r.mime, size: Number(r.size) });
      }
      const limit = f.maxSizeMb === undefined ? undefined : f.maxSizeMb * 1024 * 1024;
      // an image field takes images, whatever else it names
      const accept = f.type === 'image' ? (f.accept ?? ['image/*']).filter((a) => a.startsWith('image/')) : f.accept;
      for (const { row, key } of using) {
        const mine = idsOf(row[name]).map((id) => files.get(id));
        // the same words as for a file that is not the caller's to read (Repository.fileErrors): neither tells it exists
        if (mine.some((x) => !x)) errors[`${key}${name}`] = { key: 'validation.file_not_found' };
        else if (mine.some((x) => !acceptsMime(accept, x!.mime)))
          errors[`${key}${name}`] = { key: 'validation.file_type', args: { types: (accept ?? []).join(', ') } };
        else if (limit !== undefined && mine.some((x) => x!.size > limit))
          errors[`${key}${name}`] = { key: 'validation.file_size', args: { mb: f.maxSizeMb } };
      }
    }
    if (f.lookup) {
      const [target, column] = f.lookup.split('.');
      const values = [...new Set(using.map(({ row }) => String(row[name])))];
      const found = new Set((await trx(refTable(c.model, target)).whereIn(column, values).pluck(column)).map(String));
      for (const { row, key } of using) if (!found.has(String(row[name]))) errors[`${key}${name}`] = { key: 'validation.ref_not_found' };
    }
    if (f.type === 'children') {
      const children: Located[] = using.flatMap(({ row, key }) =>
        (Array.isArray(row[name]) ? (row[name] as unknown[]) : [])
          .map((child, i) => ({ row: child as Record<string, unknown>, key: `${key}${name}.${i}.` }))
          .filter((x) => x.row && typeof x.row === 'object'),
      );
      Object.assign(errors, await referenceErrors(trx, c, children, f.fields ?? {}));
    }
  }
  return errors;
}

/**
 * Rows whose references must agree with their other fields (`within`): a mahalla of another
 * district than the row's is "not in the chosen …" beside the field. Checked on the whole row
 * (an update's changes over the row before them) when the reference or a field it agrees with was
 * written; a row leaving either empty is not checked.
 */
export async function withinErrors(
  trx: Knex | Knex.Transaction,
  model: MetaModel,
  rows: (Located & { touched: Set<string> })[],
  fields: Record<string, FieldMeta>,
): Promise<Record<string, FieldError>> {
  const errors: Record<string, FieldError> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (!f.within || f.type !== 'ref') continue;
    const pairs = Object.entries(f.within);
    const using = rows.filter(
      ({ row, touched }) =>
        row[name] != null && (touched.has(name) || pairs.some(([, own]) => touched.has(own))) && pairs.every(([, own]) => row[own] != null),
    );
    if (!using.length) continue;
    const ids = [...new Set(using.map(({ row }) => Number(row[name])))];
    const found = new Map<number, Record<string, unknown>>();
    for (let i = 0; i < ids.length; i += 5000) {
      for (const r of await trx(refTable(model, f.ref!))
        .whereIn('id', ids.slice(i, i + 5000))
        .select('id', ...pairs.map(([column]) => column)))
        found.set(Number(r.id), r);
    }
    for (const { row, key } of using) {
      const target = found.get(Number(row[name]));
      const off = target && pairs.find(([column, own]) => String(target[column]) !== String(row[own]));
      if (off) errors[`${key}${name}`] = { key: 'validation.not_within', args: { field: off[1] } };
    }
  }
  return errors;
}
