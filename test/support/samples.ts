import type { Knex } from 'knex';
import { toColumnValue } from '../../api/engine/sql.ts';
import type { EntityMeta, FieldMeta, MetaModel } from '../../api/meta/types.ts';
import { FORMATS } from '../../api/meta/formats.ts';
import { writableFields } from '../../api/engine/payload-schema.ts';

let counter = 0;
const digits = (n: number) => {
  counter++;
  const s = `${Date.now() % 1e9}${counter}${Math.floor(Math.random() * 1e9)}`.replace(/\D/g, '');
  return s.padEnd(n, '7').slice(-n);
};

/** Values that an entity's cross-field constraints need (the generator cannot read SQL checks). */
export const CONSTRAINT_VALUES: Record<string, Record<string, unknown>> = {
  // a fine income type: offence payments take only those (its split is the fines' 26 / 74)
  'income-types': { budget_percent: '26', fund_percent: '74', organisation_percent: '0', group: 'fine' },
  fine: { min_multiple: '1', max_multiple: '5' },
  'subject-report-yearly': { period: 'month', month: 3 },
  // within the sample fine article's interval (1 – 5)
  'subject-protocols': { fine_multiple: '2' },
  // the same article; a person offender (an organisation needs a subject's INN)
  offences: { fine_multiple: '2', offenders: [{ offender_kind: 'person', full_name: 'Aliyev Vali' }] },
  // bounds only for numbers, a length only for strings, options only for choices
  'control-zone-fields': { field_kind: 'string', min: null, max: null, max_length: 10, required: false },
};

/** Which row a reference of a sample takes when not any will do (`entity.field`: column values of the referred row). */
export const REFERENCE_WHERE: Record<string, Record<string, unknown>> = {
  // offence payments take fine income codes only
  'offences-payment.income_type_id': { group: 'fine' },
};

/** A valid value for a field, derived from its metadata only. */
export function sampleValue(name: string, f: FieldMeta, refIds: Record<string, number>): unknown {
  switch (f.type) {
    case 'string':
    case 'text': {
      if (f.format) {
        if (f.format === 'passport') return `AB${digits(7)}`;
        if (f.format === 'email') return `t${digits(6)}@example.uz`;
        // the longest the format allows (a SOATO code takes 4 to 10 digits): random samples then seldom meet in a unique column
        const bounds = /\{(\d+)(?:,(\d+))?\}/.exec(FORMATS[f.format].pattern);
        const len = Math.min(Number(bounds?.[2] ?? bounds?.[1] ?? 9), f.maxLength ?? Infinity);
        return digits(len);
      }
      const max = f.maxLength ?? 255;
      const min = f.minLength ?? 0;
      const candidates = [
        `T${digits(6)}`,
        `t${digits(6)}`,
        digits(Math.min(max, 7)),
        '#00aa00',
        `${digits(2)}.${digits(2)}`,
        `T${digits(Math.max(6, min - 1))}`,
        `/t${digits(6)}`,
      ];
      const ok = candidates.find((c) => c.length <= max && c.length >= min && (!f.pattern || new RegExp(f.pattern, 'u').test(c)));
      if (!ok) throw new Error(`no sample for ${name} (${f.pattern})`);
      return ok;
    }
    case 'integer':
      // a year a row is kept for (a branch's plan, a planting plan) is part of what keeps two rows
      // apart (one plan a branch, year and period): each sample takes another year of the range
      if (name === 'year' && typeof f.min === 'number' && typeof f.max === 'number' && f.max - f.min > 2) {
        counter++;
        return f.min + 1 + (counter % (f.max - f.min - 1));
      }
      return typeof f.min === 'number' ? f.min + 1 : 1;
    case 'decimal':
    case 'money': {
      const scale = f.type === 'money' ? 2 : (f.scale ?? 4);
      const v = typeof f.max === 'number' ? Math.min(f.max, 12.5) : 12.5;
      return v.toFixed(Math.min(scale, 2));
    }
    case 'boolean':
      return true;
    case 'date': {
      if (!f.unique) return '2024-01-15';
      counter++;
      return new Date(Date.UTC(2001, 0, 1) + ((counter * 7919) % 8000) * 86400000).toISOString().slice(0, 10);
    }
    case 'datetime':
      return '2024-01-15T10:00:00+05:00';
    case 'enum':
      return f.values![f.values!.length - 1];
    case 'ref':
      return refIds[f.ref!];
    case 'refs':
      return [];
    case 'files':
      return [];
    case 'file':
    case 'image':
      return null;
    case 'text3':
      return { uz: `Sinov ${digits(4)}`, uk: 'Синов', ru: 'Тест' };
    case 'point':
      return { lat: 41.3, lng: 69.25 };
    case 'polygon':
      return [
        [69.2, 41.3],
        [69.21, 41.3],
        [69.21, 41.31],
      ];
    case 'children':
      return [];
    case 'password':
      return 'secret-123';
    // a form's values: an empty form (its schema's required fields are the sample's own to meet)
    case 'json':
      return f.form ? {} : undefined;
  }
}

/** A valid create payload, creating referenced rows where the target table is empty. */
export async function samplePayload(knex: Knex, model: MetaModel, e: EntityMeta, depth = 0): Promise<Record<string, unknown>> {
  const refIds: Record<string, number> = {};
  for (const [name, f] of writableFields(e)) {
    if (f.type !== 'ref' || refIds[f.ref!] !== undefined) continue;
    const target = model.entities.get(f.ref!);
    if (!target) continue;
    let row = await knex(target.table)
      .where(REFERENCE_WHERE[`${e.name}.${name}`] ?? {})
      .first('id');
    if (!row && depth < 4) {
      const payload = await samplePayload(knex, model, target, depth + 1);
      const columns = Object.entries(payload).filter(
        ([k]) => target.fields[k] && target.fields[k].type !== 'children' && !target.fields[k].through,
      );
      [row] = await knex(target.table)
        .insert(Object.fromEntries(columns.map(([k, v]) => [k, toColumnValue(knex, target.fields[k], v)])))
        .returning('id');
    }
    refIds[f.ref!] = row?.id;
  }
  const out: Record<string, unknown> = {};
  for (const [name, f] of writableFields(e)) out[name] = sampleValue(name, f, refIds);
  for (const [name, f] of writableFields(e)) {
    if (!f.lookup) continue;
    const [target, column] = f.lookup.split('.');
    out[name] = (await knex(model.entities.get(target)!.table).first(column))?.[column] ?? out[name];
  }
  for (const [name, f] of writableFields(e)) {
    if (f.type !== 'enum' || !f.unique) continue;
    const used = new Set(await knex(e.table).pluck(name));
    out[name] = f.values!.find((v) => !used.has(v)) ?? out[name];
  }
  return agreeWithin(knex, model, e, { ...out, ...(CONSTRAINT_VALUES[e.name] ?? {}) });
}

/**
 * References `within` other fields (a district within the row's region, a mahalla within its
 * district) made to agree with the payload's values of those fields: a referenced row that does,
 * or none when there is none and the field may stay empty. Fields named in `keep` are left as given.
 */
export async function agreeWithin(
  knex: Knex,
  model: MetaModel,
  e: EntityMeta,
  payload: Record<string, unknown>,
  keep: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  for (const [name, f] of Object.entries(e.fields)) {
    if (!f.within || name in keep || payload[name] == null) continue;
    const where = Object.fromEntries(Object.entries(f.within).map(([column, own]) => [column, payload[own]]));
    if (Object.values(where).some((v) => v == null)) continue;
    const target = model.entities.get(f.ref!)!;
    payload[name] = (await knex(target.table).where(where).orderBy('id').first('id'))?.id ?? (f.required ? payload[name] : null);
  }
  return payload;
}

/**
 * A book with a unique enum (one category per danger level) has all its values taken by the seed:
 * free one by deleting a row nothing references yet.
 */
export async function freeUniqueEnum(knex: Knex, e: EntityMeta, keep?: unknown): Promise<void> {
  if (!Object.values(e.fields).some((f) => f.type === 'enum' && f.unique)) return;
  for (const { id } of await knex(e.table).orderBy('id', 'desc').select('id')) {
    if (id === keep) continue;
    try {
      await knex(e.table).where({ id }).delete();
      return;
    } catch {
      /* referenced: try the next */
    }
  }
}

/** A fine article 65-1 (tree felling) with the interval 5–10 minimum wages, coded `code`: its id. */
export async function sampleFineArticle(knex: Knex, code: string): Promise<number> {
  const [{ id }] = await knex('fine')
    .insert({ code, article: '65', part: '1', name: JSON.stringify({ uz: 'Daraxt kesish' }), min_multiple: '5', max_multiple: '10' })
    .returning('id');
  return Number(id);
}
