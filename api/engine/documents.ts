import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta, Lang, MetaModel } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { ApiError, notFound, validationError, type FieldError } from '../kernel/errors.ts';
import { resolveDocumentPath, type PathStep } from '../meta/document-paths.ts';
import { translate } from '../meta/captions.ts';
import { todayTashkent, isIsoDate } from '../meta/today.ts';
import { formatTiyinForDisplay, parseTiyin } from '../domain/money.ts';
import { formatDecimal } from '../../shared/numbers.ts';
import { amountInWords, dateInWords, numberInWords } from '../domain/words.ts';
import { printablePage } from './document-html.ts';
import { printInWorker } from './document-print.ts';
import { storeBytes } from './files.ts';
import { Repository } from './repository.ts';
import { formatVerifyCode, newVerifyCode, normaliseVerifyCode } from '../domain/verify-code.ts';

/**
 * Printing documents from records (docs/template-documents.md). An entity that says
 * `"documents": {"type": "<code>", "fields": {...}}` prints the templates of that
 * template-document type: its reserved fields are read from the record along the declared paths,
 * the template's own fields are what the printer types, `<CODE>_WORDS` spells a reserved amount or
 * date in words in the template's language, and `TODAY` is the day of issue. Each print is stored
 * as an issued document — the filled HTML and the PDF — so a later edit of the template changes
 * no document already issued. Whoever may read the record may print it and read what was printed.
 */

/** A value of a reserved field: as printed, and what words are made from. */
interface Value {
  text: string;
  raw?: unknown;
  type?: FieldMeta['type'];
}

const ISSUED = 'issued-documents';

/** The line printed above a document's check code, in the document's language. */
const VERIFY_CAPTION: Record<Lang, string> = {
  uz: 'Hujjatning haqiqiyligini tekshiring: QR kodni skanerlang yoki saytda kodni kiriting',
  uk: 'Ҳужжатнинг ҳақиқийлигини текширинг: QR кодни сканерланг ёки сайтда кодни киритинг',
  ru: 'Проверьте подлинность документа: отсканируйте QR-код или введите код на сайте',
};

/**
 * The public site's address the QR codes open: `ECOFOND_PUBLIC_SITE_URL` when set (a deployment
 * whose public site lives elsewhere), else the origin the back-office was reached at (the server
 * serves the public site at `/`).
 */
export function publicSiteBase(requestOrigin: string): string {
  return (process.env.ECOFOND_PUBLIC_SITE_URL || requestOrigin || '').replace(/\/+$/, '');
}

/** The public page that checks a document by its code. */
export const verifyUrl = (base: string, code: string): string => `${base}/#/verify/${code}`;

function formatDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}.${m}.${y}`;
}

/** A stored value as a document prints it, in a language. */
function printable(model: MetaModel, lang: Lang, name: string, f: FieldMeta, v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  switch (f.type) {
    case 'text3': {
      const t = v as Record<string, string | undefined>;
      return t[lang] || t.uz || t.ru || t.uk || '';
    }
    // one number formatter for the screen, Excel and the printed page (shared/numbers.ts)
    case 'money':
      return formatTiyinForDisplay(parseTiyin(String(v)), lang);
    case 'decimal':
      return formatDecimal(v, lang);
    case 'date':
      return formatDate(String(v));
    // a moment is printed as Tashkent's day, not UTC's
    case 'datetime':
      return formatDate(todayTashkent(v instanceof Date ? v : new Date(String(v))));
    case 'boolean':
      return v ? '✓' : '—';
    case 'enum':
      return translate(model, lang, `enums.${name}.${String(v)}`);
    default:
      return String(v);
  }
}

/** Reads a reserved value along a path's steps from a row (children joined with ", "). */
async function valueAt(
  db: Knex | Knex.Transaction,
  model: MetaModel,
  lang: Lang,
  steps: PathStep[],
  row: Record<string, unknown> | undefined,
): Promise<Value[]> {
  if (!row) return [];
  const [step, ...rest] = steps;
  if (step.kind === 'field') {
    const v = row[step.name];
    if (step.field.type === 'ref' && step.field.ref && v) {
      // a reference prints the title of the row it names
      const target = model.entities.get(step.field.ref);
      if (!target) return [{ text: String(v) }];
      const r = await db(target.table).where({ id: v }).first(target.titleField);
      const tf = target.fields[target.titleField];
      return [{ text: r && tf ? printable(model, lang, target.titleField, tf, r[target.titleField]) : String(v) }];
    }
    return [{ text: printable(model, lang, step.name, step.field, v), raw: v, type: step.field.type }];
  }
  if (step.kind === 'children') {
    const children = (row[step.name] as Record<string, unknown>[] | undefined) ?? [];
    const out: Value[] = [];
    for (const c of children) out.push(...(await valueAt(db, model, lang, rest, c)));
    return out;
  }
  const id = row[step.name];
  if (!id) return [];
  const next = await db(step.table).where({ id }).first();
  return valueAt(db, model, lang, rest, next);
}

/** The reserved values of a record: each declared path read, `TODAY`, and the words of each amount and date. */
export async function reservedValues(
  db: Knex | Knex.Transaction,
  model: MetaModel,
  e: EntityMeta,
  row: Record<string, unknown>,
  lang: Lang,
  today = todayTashkent(),
): Promise<Record<string, Value>> {
  const out: Record<string, Value> = { TODAY: { text: formatDate(today), raw: today, type: 'date' } };
  for (const [code, path] of Object.entries(e.documents?.fields ?? {})) {
    const steps = resolveDocumentPath(model, e, path);
    if (typeof steps === 'string') continue; // the loader refused such a path
    const values = (await valueAt(db, model, lang, steps, row)).filter((v) => v.text !== '');
    out[code] = values.length === 1 ? values[0] : { text: values.map((v) => v.text).join(', ') };
  }
  return out;
}

/** `<CODE>_WORDS` of a value: an amount or a date in words; an integer spelled out. */
export function inWords(v: Value | undefined, lang: Lang): string | undefined {
  if (!v || v.raw === undefined || v.raw === null || v.raw === '') return undefined;
  if (v.type === 'money' || v.type === 'decimal') {
    try {
      return amountInWords(String(v.raw), lang);
    } catch {
      return undefined;
    }
  }
  if (v.type === 'date' && typeof v.raw === 'string' && isIsoDate(v.raw)) return dateInWords(v.raw, lang);
  if (v.type === 'integer' && Number.isSafeInteger(Number(v.raw)) && Number(v.raw) >= 0) return numberInWords(Number(v.raw), lang);
  return undefined;
}

interface TemplateRow {
  id: number;
  version: number;
  name: string;
  language: Lang;
  body: string | null;
  type_id: number;
  is_active: boolean;
}
interface TemplateField {
  code: string;
  name: Record<string, string>;
  field_type_id: number;
  required: boolean;
  type_code?: string;
}

async function typeOf(db: Knex | Knex.Transaction, e: EntityMeta): Promise<{ id: number; code: string; name: Record<string, string> }> {
  const t = await db('template_document_types').where({ code: e.documents!.type }).first('id', 'code', 'name');
  if (!t) throw new ApiError('workflow', 'errors.no_template');
  return t;
}

async function templateFieldsOf(db: Knex | Knex.Transaction, templateId: number): Promise<TemplateField[]> {
  return db('template_document_fields as f')
    .leftJoin('td_field_types as t', 't.id', 'f.field_type_id')
    .where('f.parent_id', templateId)
    .orderBy('f.ordering')
    .select('f.code', 'f.name', 'f.field_type_id', 'f.required', 't.code as type_code');
}

/** What the record may print: the active templates of its type (with the fields they ask for), and what was issued. */
export async function documentsOf(knex: Knex, e: EntityMeta, id: number) {
  const type = await knex('template_document_types').where({ code: e.documents!.type }).first('id', 'code', 'name');
  const templates = type
    ? await knex('template_documents')
        .where({ type_id: type.id, is_active: true })
        .orderBy(['language', 'name', 'id'])
        .select('id', 'name', 'language', 'version')
    : [];
  for (const t of templates) t.fields = await templateFieldsOf(knex, t.id);
  const issued = await knex('issued_documents as d')
    .leftJoin('users as u', 'u.id', 'd.created_by')
    .where({ 'd.entity': e.name, 'd.record_id': id })
    .orderBy('d.id', 'desc')
    .select('d.id', 'd.title', 'd.language', 'd.template_id', 'd.template_version', 'd.created_at', 'd.pdf', 'u.fio as issued_by');
  return { type: type ?? null, templates, issued };
}

export interface IssueRequest {
  template_id?: unknown;
  values?: unknown;
}

export interface EngineCaller {
  knex: Knex;
  model: MetaModel;
  principal: Principal;
  lang: Lang;
}

/**
 * Prints a document of a record the caller may read (the route read it in their scope): fills the
 * chosen template (or the active one of the type in the caller's language), makes its PDF, and
 * stores both as an issued document through the engine's write path (one audit row).
 */
export async function issueDocument(
  c: EngineCaller,
  e: EntityMeta,
  row: Record<string, unknown>,
  body: IssueRequest,
  now = new Date(),
  publicBase = publicSiteBase('http://localhost'),
) {
  const { knex, model } = c;
  const type = await typeOf(knex, e);
  let template: TemplateRow | undefined;
  if (body.template_id !== undefined && body.template_id !== null) {
    const tid = Number(body.template_id);
    if (!Number.isSafeInteger(tid) || tid < 1) throw validationError({ template_id: { key: 'validation.wrong_format' } });
    template = await knex('template_documents').where({ id: tid, type_id: type.id, is_active: true }).first();
    if (!template) throw validationError({ template_id: { key: 'errors.no_template' } });
  } else {
    const all: TemplateRow[] = await knex('template_documents').where({ type_id: type.id, is_active: true }).orderBy('id');
    template = all.find((t) => t.language === c.lang) ?? all[0];
    if (!template) throw new ApiError('workflow', 'errors.no_template');
  }
  const lang = template.language;

  // the printer's own fields
  const given =
    body.values && typeof body.values === 'object' && !Array.isArray(body.values) ? (body.values as Record<string, unknown>) : {};
  const errors: Record<string, FieldError> = {};
  const values: Record<string, string> = {};
  const own = await templateFieldsOf(knex, template.id);
  for (const f of own) {
    const raw = given[f.code];
    const s = raw === undefined || raw === null ? '' : String(raw).trim();
    if (!s) {
      if (f.required) errors[f.code] = { key: 'validation.required' };
      continue;
    }
    if (s.length > 2000) {
      errors[f.code] = { key: 'validation.max_length', args: { limit: 2000 } };
      continue;
    }
    if (f.type_code === 'NUMBER' && !/^-?\d+([.,]\d+)?$/.test(s)) {
      errors[f.code] = { key: 'validation.wrong_format' };
      continue;
    }
    if (f.type_code === 'DATE') {
      if (!isIsoDate(s)) {
        errors[f.code] = { key: 'validation.wrong_format' };
        continue;
      }
      values[f.code] = formatDate(s);
      values[`${f.code}_WORDS`] = dateInWords(s, lang);
      continue;
    }
    values[f.code] = s;
  }
  if (Object.keys(errors).length) throw validationError(errors);

  const reserved = await reservedValues(knex, model, e, row, lang, todayTashkent(now));
  for (const [code, v] of Object.entries(reserved)) {
    values[code] = v.text;
    const words = inWords(v, lang);
    if (words !== undefined) values[`${code}_WORDS`] = words;
  }

  const titleValue = row[e.titleField];
  const title =
    `${template.name}${titleValue !== undefined && titleValue !== null && typeof titleValue !== 'object' ? ` № ${titleValue}` : ''}`.slice(
      0,
      255,
    );
  // filling and drawing are CPU work of up to seconds: a worker thread does them (document-print.ts)
  // the code anyone holding the paper checks it by (decision 0075): on its foot and in its QR code
  const code = newVerifyCode();
  const url = verifyUrl(publicBase, code);
  const { html, text, pdf } = await printInWorker({
    body: template.body ?? '',
    values,
    title,
    lang,
    issuedAt: now.getTime(),
    verify: { url, code: formatVerifyCode(code), caption: VERIFY_CAPTION[lang] ?? VERIFY_CAPTION.uz },
  });
  const region = Number(row.region_id);

  return knex.transaction(async (trx) => {
    const file = await storeBytes(trx, {
      name: `${title.replace(/[\\/:*?"<>|]+/g, '_')}.pdf`,
      mime: 'application/pdf',
      body: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength),
      userId: c.principal.id || null,
    });
    const repo = new Repository({ ...c, trx, trusted: true }, model.entities.get(ISSUED)!);
    const doc = await repo.create({
      entity: e.name,
      record_id: Number(row.id),
      type_id: type.id,
      template_id: template!.id,
      template_version: template!.version,
      language: lang,
      title,
      html,
      pdf: file.id,
      verify_code: code,
      region_id: Number.isSafeInteger(region) && region > 0 ? region : null,
    });
    return { ...doc, text, verify_url: url, sha256: file.sha256 };
  });
}

/**
 * An issued document, for a caller who may read its record (else a 404, whether the document or
 * the record is missing or out of their reach).
 */
export async function issuedDocument(c: EngineCaller, id: number, publicBase?: string): Promise<Record<string, unknown>> {
  const doc = await c.knex('issued_documents').where({ id }).first();
  if (!doc) throw notFound();
  const e = c.model.entities.get(doc.entity);
  if (!e?.documents) throw notFound();
  try {
    await new Repository(c, e).findOne(Number(doc.record_id), 'read');
  } catch (err) {
    if (err instanceof ApiError && (err.kind === 'forbidden' || err.kind === 'notFound')) throw notFound();
    throw err;
  }
  const file = doc.pdf ? await c.knex('resources').where({ id: doc.pdf }).first('sha256') : undefined;
  return {
    ...doc,
    sha256: file?.sha256 ?? null,
    verify_url: doc.verify_code && publicBase ? verifyUrl(publicBase, doc.verify_code) : null,
    page: printablePage(doc.title, doc.html, doc.language),
  };
}

/** Names in the three languages, as the public reads them. */
type Names = Record<Lang, string>;

/** What the public sees of an issued document (GET /api/public/documents/:code). */
export interface VerifiedDocument {
  code: string;
  /** the document's kind: the template-document type's name */
  kind: Names | null;
  /** the document's title as printed: the template's name and the record's number */
  title: string;
  language: Lang;
  /** the moment of issue (ISO); the site shows it in Tashkent's time */
  issued_at: string;
  /** the regional office that issued it (the record's region) */
  office: Names | null;
  /** SHA-256 of the issued PDF, hex */
  sha256: string | null;
  /** issued documents are printed and signed on paper; none carries an electronic signature yet */
  signature: 'paper';
  /** valid, or withdrawn: the record it was issued from has since been deleted (or revoked: `withdrawnWhen`) */
  status: 'valid' | 'withdrawn';
}

/**
 * The public check of an issued document by its code (decision 0075): only what the paper itself
 * says of where it comes from — its kind, title (a template name and a record number), office,
 * moment of issue, file hash, signature and whether it still stands. Never its text or any value
 * filled into it (offender, PINFL, passport, subject): those are the record's, read only by staff.
 * An unknown or malformed code is a 404.
 */
export async function verifyDocument(knex: Knex, model: MetaModel, input: unknown): Promise<VerifiedDocument> {
  const code = normaliseVerifyCode(input);
  if (!code) throw notFound();
  const doc = await knex('issued_documents as d')
    .leftJoin('template_document_types as t', 't.id', 'd.type_id')
    .leftJoin('regions as r', 'r.id', 'd.region_id')
    .leftJoin('resources as f', 'f.id', 'd.pdf')
    .where('d.verify_code', code)
    .first('d.entity', 'd.record_id', 'd.title', 'd.language', 'd.created_at', 't.name as kind', 'r.name as office', 'f.sha256');
  if (!doc) throw notFound();
  const e = model.entities.get(doc.entity);
  // an act or a protocol is withdrawn by deleting it (its delete action): its documents no longer
  // stand; a permit also while its state says so (`documents.withdrawnWhen`: revoked, terminated)
  const withdrawnWhen = e?.documents?.withdrawnWhen;
  const record = e
    ? await knex(e.table)
        .where({ id: doc.record_id })
        .first(['id', ...(e.softDelete ? ['deleted_at'] : []), ...(withdrawnWhen ? [withdrawnWhen.field] : [])])
    : undefined;
  const standing = !!record && !record.deleted_at && !(withdrawnWhen && withdrawnWhen.values.includes(String(record[withdrawnWhen.field])));
  return {
    code,
    kind: doc.kind ?? null,
    title: doc.title,
    language: doc.language,
    issued_at: new Date(doc.created_at).toISOString(),
    office: doc.office ?? null,
    sha256: doc.sha256 ?? null,
    signature: 'paper',
    status: standing ? 'valid' : 'withdrawn',
  };
}
