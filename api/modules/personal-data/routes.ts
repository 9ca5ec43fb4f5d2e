import type { Knex } from 'knex';
import type { RouteContext, RouteHandler } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import type { EntityMeta } from '../../meta/types.ts';
import { ApiError, validationError } from '../../kernel/errors.ts';
import { translate } from '../../meta/captions.ts';
import { normaliseFormatted } from '../../meta/formats.ts';
import {
  anonymousValue,
  maskAuditOf,
  personalFields,
  recordClearRead,
  rowsHoldingPerson,
  shownPersonal,
  type PersonalField,
} from '../../engine/personal.ts';

/**
 * What the law keeps of a person's records when they ask to be erased (docs/personal-data.md,
 * "Erasure", docs/decisions/0062), by entity: `keep` — financial records (payments, the fund's
 * payers), kept whole for the accounting law's term and never anonymised here; `refuse` — while
 * a record is in this state its personal data is needed for the proceedings, and the whole
 * anonymisation is refused (409) naming it. Any other entity holding the person is anonymised.
 */
const KEEP = new Set(['payments', 'offences-payment', 'subject']);
const REFUSE: Record<string, (row: Record<string, unknown>) => boolean> = {
  // an offence is evidence until it is closed and its fine paid (Code of Administrative Responsibility)
  offences: (r) => r.status !== 'closed' || r.payment_status !== 'paid',
  // a violation until it is closed; a permit while it is in force
  'tree-cutting-violations': (r) => r.status !== 'closed',
  'given-permits': (r) => r.status === 'active',
  'tree-cutting-permits': (r) => r.status === 'issued',
};

/** The person asked about: a PINFL (14 digits) or a passport (AA1234567), a 400 naming the field otherwise. */
function personOf(ctx: AppContext): { kind: 'pinfl' | 'passport'; value: string } {
  const b = (ctx.request as { body?: unknown }).body;
  const body = (b && typeof b === 'object' ? b : {}) as Record<string, unknown>;
  const pinfl = normaliseFormatted('pinfl', body.pinfl);
  const passport = normaliseFormatted('passport', body.passport);
  if (typeof pinfl === 'string' && pinfl !== '') {
    if (!/^\d{14}$/.test(pinfl)) throw validationError({ pinfl: { key: 'validation.pinfl' } });
    return { kind: 'pinfl', value: pinfl };
  }
  if (typeof passport === 'string' && passport !== '') {
    if (!/^[A-Z]{2}\d{7}$/.test(passport)) throw validationError({ passport: { key: 'validation.passport' } });
    return { kind: 'passport', value: passport };
  }
  throw validationError({ pinfl: { key: 'validation.required' } });
}

/** The entities that may hold a person by an identifier of this kind. */
const holders = (rc: RouteContext, kind: 'pinfl' | 'passport') =>
  [...rc.model.entities.values()].filter((e) => personalFields(e).some((p) => p.kind === kind));

interface Found {
  e: EntityMeta;
  rows: Record<string, unknown>[];
}

/** Every record holding the person, read in clear (the route's own right is the check), in `trx` when given. */
async function gather(rc: RouteContext, kind: 'pinfl' | 'passport', value: string, trx?: Knex.Transaction): Promise<Found[]> {
  const out: Found[] = [];
  for (const e of holders(rc, kind)) {
    const ids = await rowsHoldingPerson(trx ?? rc.knex, e, kind, value);
    if (!ids.length) continue;
    const repo = rc.trustedRepo(e.name, trx);
    const rows: Record<string, unknown>[] = [];
    for (const id of ids) rows.push(await repo.getOne(id));
    out.push({ e, rows });
  }
  return out;
}

/** A person's values in a child table's rows: only the rows that hold them (another offender of the same offence is not theirs). */
function ownChildren(e: EntityMeta, row: Record<string, unknown>, kind: 'pinfl' | 'passport', value: string): Record<string, unknown> {
  const out = { ...row };
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.type !== 'children') continue;
    const keys = personalFields(e).filter((p) => p.child === name && p.kind === kind);
    if (!keys.length) continue;
    out[name] = ((row[name] as Record<string, unknown>[]) ?? []).filter((c) => keys.some((p) => c[p.name] === value));
  }
  return out;
}

export const PERSONAL_DATA_HANDLERS: Record<string, RouteHandler> = {
  /**
   * Every record holding a person's PINFL or passport, as JSON for them (the Law's right to know
   * what is kept): by entity, its caption in the caller's language, the rows in clear (a child
   * table only with the person's own rows). One access record an entity, kind `person`.
   */
  'personalData.personExport': async (ctx, rc) => {
    const person = personOf(ctx);
    const found = await gather(rc, person.kind, person.value);
    const records = [];
    for (const { e, rows } of found) {
      const own = rows.map((r) => ownChildren(e, r, person.kind, person.value));
      await recordClearRead(
        rc.knex,
        rc.principal!,
        e,
        'person',
        rows.map((r) => Number(r.id)),
        shownPersonal(e, own),
      );
      records.push({ entity: e.name, caption: translate(rc.model, rc.lang, e.caption), kept: KEEP.has(e.name), rows: own });
    }
    ctx.set('Content-Disposition', `attachment; filename="personal-data-${person.kind}.json"`);
    ctx.body = { [person.kind]: person.value, records };
  },

  /**
   * Anonymises a person: in one transaction, every record holding their PINFL or passport that no
   * law keeps gets the person's personal fields (and names) replaced by placeholders through the
   * write path (an audit row each, action `anonymise`), and the personal values of those records'
   * audit rows masked — the rows, amounts and the trail's who and when stay. Financial records are
   * kept whole and listed. Refused whole (409) while a record must keep the data (an offence not
   * closed or its fine unpaid, a violation open, a permit in force), naming them.
   */
  'personalData.anonymise': async (ctx, rc) => {
    const person = personOf(ctx);
    ctx.body = await rc.knex.transaction(async (trx) => {
      const found = await gather(rc, person.kind, person.value, trx);
      const held = found.flatMap(({ e, rows }) =>
        rows.filter((r) => REFUSE[e.name]?.(r)).map((r) => `${translate(rc.model, rc.lang, e.caption)} #${r.id}`),
      );
      if (held.length)
        throw new ApiError('workflow', 'errors.pd_kept_by_law', { records: held.join(', ') }, undefined, undefined, { held });
      const anonymised: { entity: string; ids: number[] }[] = [];
      const kept: { entity: string; ids: number[] }[] = [];
      for (const { e, rows } of found) {
        const ids = rows.map((r) => Number(r.id));
        if (KEEP.has(e.name)) {
          kept.push({ entity: e.name, ids });
          continue;
        }
        const fields = personalFields(e);
        const writes = [...new Set(fields.map((p) => p.child ?? p.name))];
        const repo = rc.trustedRepo(e.name, trx);
        for (const id of ids)
          await repo.update(id, (before) => anonymisedOf(e, fields, before, person.kind, person.value), undefined, {
            anyVersion: true,
            fields: writes,
            action: 'anonymise',
          });
        for (const id of ids) await maskAuditOf(trx, e, id);
        anonymised.push({ entity: e.name, ids });
      }
      return { anonymised, kept };
    });
  },
};

/**
 * The changes that anonymise a person in one row: its own personal fields when they hold the
 * person, and in a child table the person's own rows (matched by the identifier) with every
 * personal column replaced; other columns and other child rows as they are.
 */
function anonymisedOf(
  e: EntityMeta,
  fields: PersonalField[],
  before: Record<string, unknown>,
  kind: 'pinfl' | 'passport',
  value: string,
): Record<string, unknown> | null {
  const changes: Record<string, unknown> = {};
  const own = fields.filter((p) => !p.child);
  if (own.some((p) => p.kind === kind && before[p.name] === value))
    for (const p of own) if (before[p.name] !== null && before[p.name] !== undefined) changes[p.name] = anonymousValue(p);
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.type !== 'children') continue;
    const cols = fields.filter((p) => p.child === name);
    if (!cols.length) continue;
    const rows = (before[name] as Record<string, unknown>[]) ?? [];
    if (!rows.some((c) => cols.some((p) => p.kind === kind && c[p.name] === value))) continue;
    changes[name] = rows.map((c) => {
      const { id: _id, ...rest } = c;
      if (!cols.some((p) => p.kind === kind && c[p.name] === value)) return rest;
      for (const p of cols) if (rest[p.name] !== null && rest[p.name] !== undefined) rest[p.name] = anonymousValue(p);
      return rest;
    });
  }
  return Object.keys(changes).length ? changes : null;
}
