import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta } from '../../meta/types.ts';
import { importRowsError, validationError, type FieldError } from '../../kernel/errors.ts';
import { refTable, toColumnValue } from '../sql.ts';
import { compilePayloadValidator, writableFields, type PayloadValidator } from '../payload-schema.ts';
import { hashPassword } from '../../auth/password.ts';
import { childFields } from '../children.ts';
import { referenceErrors, withinErrors } from '../references.ts';
import { fileColumns, filesReadable } from '../file-access.ts';
import { translate } from '../../meta/captions.ts';
import { fieldCaption } from '../../meta/load.ts';
import { RepositoryAudit } from './audit.ts';
import { RepositoryScope } from './scope.ts';

const validators = new WeakMap<EntityMeta, Map<string, PayloadValidator>>();
export function validatorOf(e: EntityMeta, mode: 'create' | 'update', extra: readonly string[] = []): PayloadValidator {
  let byKey = validators.get(e);
  if (!byKey) validators.set(e, (byKey = new Map()));
  const key = `${mode}|${extra.join(',')}`;
  let v = byKey.get(key);
  if (!v) {
    const fields = extra.length
      ? {
          ...e.fields,
          ...Object.fromEntries(extra.map((n) => [n, { ...e.fields[n], readOnly: false, computedBy: undefined, from: undefined }])),
        }
      : e.fields;
    v = compilePayloadValidator({ ...e, fields }, mode);
    byKey.set(key, v);
  }
  return v;
}

/**
 * The repository's validation of what a write brings: the payload's writable fields and child
 * values, its columns, its references (existing, the caller's to refer to), its files (the caller's
 * to read), its `within` agreements, the fields derived from references, passwords hashed.
 */
export class RepositoryChecks extends RepositoryAudit {
  /** The writable fields of a payload (a route's declared ones too); a workflow's state is moved by its actions only. */
  protected pick(data: Record<string, unknown>, mode: 'create' | 'update', extra: readonly string[] = []): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const names = new Set([...writableFields(this.e).map(([n]) => n), ...extra]);
    for (const name of names) {
      const f = this.e.fields[name];
      if (!f || f.type === 'children') continue;
      if (mode === 'update' && this.e.workflow?.field === name && !extra.includes(name)) continue;
      if (name in data) out[name] = data[name];
    }
    return out;
  }

  /** The child-table values of a payload, by field name. */
  protected childValues(data: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(
      childFields(this.e)
        .filter(([n, f]) => !f.readOnly && n in data)
        .map(([n]) => [n, data[n]]),
    );
  }

  toColumns(row: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(row)) {
      const f = this.e.fields[name];
      if (!f || f.type === 'children' || f.through) continue;
      out[name] = toColumnValue(this.ctx.knex, f, v);
    }
    return out;
  }

  /** Every referenced row exists and is the caller's to refer to, every file fits its field: a 400 beside the field (`rows.<n>.<field>` for several rows). */
  async checkReferences(
    trx: Knex | Knex.Transaction,
    rows: Record<string, unknown>[],
    fields: Record<string, FieldMeta> = this.e.fields,
    many = rows.length > 1,
  ): Promise<void> {
    const errors = await this.referenceErrors(
      trx,
      rows.map((row, i) => ({ row, key: many ? `rows.${i + 1}.` : '' })),
      fields,
    );
    if (Object.keys(errors).length) throw many ? importRowsError(errors) : validationError(errors);
  }

  /** The reference errors of rows, each keyed by its row's prefix. */
  protected referenceErrors(
    trx: Knex | Knex.Transaction,
    located: { row: Record<string, unknown>; key: string }[],
    fields: Record<string, FieldMeta>,
  ): Promise<Record<string, FieldError>> {
    return referenceErrors(trx, { model: this.ctx.model, principal: this.ctx.trusted ? null : this.ctx.principal }, located, fields);
  }

  /**
   * The files rows newly hold (not held by the row before them: what a row already holds stays)
   * are the caller's to read — their own upload, or a file of a row they may read: else "file not
   * found" beside the field (`files`, a child row's `lines.0.file`), as for a file that does not
   * exist, so a file's existence is not told. Nothing for a trusted write, an entity without file
   * columns, or rows that bring no file: then no query at all.
   */
  protected async fileErrors(
    db: Knex | Knex.Transaction,
    located: { row: Record<string, unknown>; key: string; before?: Record<string, unknown> | null }[],
  ): Promise<Record<string, FieldError>> {
    if (this.ctx.trusted) return {};
    const cols = fileColumns(this.e);
    if (!cols.length) return {};
    const idsOf = (v: unknown): number[] => (v == null ? [] : Array.isArray(v) ? v : [v]).map(Number);
    /** the file ids of a row's column, each under the key its error takes */
    const each = (row: Record<string, unknown>, key: string, fn: (k: string, ids: number[]) => void) => {
      for (const c of cols) {
        if (!c.parent) {
          if (row[c.field] != null) fn(key + c.field, idsOf(row[c.field]));
          continue;
        }
        const children = row[c.parent];
        if (Array.isArray(children))
          children.forEach((r, i) => {
            if (r && typeof r === 'object' && (r as Record<string, unknown>)[c.field] != null)
              fn(`${key}${c.parent}.${i}.${c.field}`, idsOf((r as Record<string, unknown>)[c.field]));
          });
      }
    };
    const added: { key: string; ids: number[] }[] = [];
    const wanted = new Set<number>();
    let held = new Set<number>();
    const add = (k: string, ids: number[]) => {
      const fresh = held.size ? ids.filter((id) => !held.has(id)) : ids;
      if (!fresh.length) return;
      added.push({ key: k, ids: fresh });
      for (const id of fresh) wanted.add(id);
    };
    const hold = (_: string, ids: number[]) => {
      for (const id of ids) held.add(id);
    };
    for (const { row, key, before } of located) {
      if (held.size) held = new Set();
      if (before) each(before, '', hold);
      each(row, key, add);
    }
    if (!wanted.size) return {};
    const { knex, model, principal, lang } = this.ctx;
    const as = { knex, model, principal, lang, trx: db === knex ? undefined : (db as Knex.Transaction) };
    const readable = await filesReadable(db, model, principal, [...wanted], knex, (e) => new RepositoryScope(as, e).scoped('read', db));
    const errors: Record<string, FieldError> = {};
    for (const { key, ids } of added) if (ids.some((id) => !readable.has(id))) errors[key] ??= { key: 'validation.file_not_found' };
    return errors;
  }

  /** References that must agree with the row's other fields (`within`) do: a 400 beside the reference. */
  async checkWithin(
    trx: Knex | Knex.Transaction,
    rows: { row: Record<string, unknown>; touched: Set<string> }[],
    many: boolean,
  ): Promise<void> {
    const errors = await this.withinErrors(
      trx,
      rows.map(({ row, touched }, i) => ({ row, touched, key: many ? `rows.${i + 1}.` : '' })),
    );
    if (Object.keys(errors).length) throw many ? importRowsError(errors) : validationError(errors);
  }

  /** The `within` errors of rows, each keyed by its row's prefix, their messages naming the field in the caller's language. */
  protected async withinErrors(
    trx: Knex | Knex.Transaction,
    located: { row: Record<string, unknown>; touched: Set<string>; key: string }[],
  ): Promise<Record<string, FieldError>> {
    const errors = await withinErrors(trx, this.ctx.model, located, this.e.fields);
    for (const err of Object.values(errors))
      err.args = {
        field: translate(this.ctx.model, this.ctx.lang, fieldCaption(String(err.args!.field), this.e.fields[String(err.args!.field)])),
      };
    return errors;
  }

  /**
   * Fields declared `from: "<ref>.<column>"` copy the referenced row's column (one query per field
   * for all rows); through a lookup field (`mfo` → `banks-mfo.mfo`) the row is the one whose
   * looked-up column holds the value (a subject's bank name by its MFO).
   */
  async deriveFields(trx: Knex | Knex.Transaction, rows: Record<string, unknown>[]): Promise<void> {
    for (const [name, f] of Object.entries(this.e.fields)) {
      if (!f.from) continue;
      const [refField, column] = f.from.split('.');
      const using = rows.filter((r) => refField in r);
      if (!using.length) continue;
      const by = this.e.fields[refField];
      const [targetEntity, key] = by.lookup ? by.lookup.split('.') : [by.ref!, 'id'];
      const values = [...new Set(using.map((r) => r[refField]).filter((v) => v != null && v !== ''))] as Knex.Value[];
      const target = refTable(this.ctx.model, targetEntity);
      const found = new Map<string, unknown>(
        values.length
          ? (await trx(target).whereIn(key, values).select(`${key} as key`, column)).map((r: Record<string, unknown>) => [
              String(r.key),
              r[column],
            ])
          : [],
      );
      for (const r of using) r[name] = r[refField] == null || r[refField] === '' ? null : (found.get(String(r[refField])) ?? null);
    }
  }

  protected async hashPasswords(row: Record<string, unknown>): Promise<void> {
    for (const [name, f] of Object.entries(this.e.fields)) {
      if (f.type === 'password' && typeof row[name] === 'string') row[name] = await hashPassword(row[name] as string);
    }
  }
}
