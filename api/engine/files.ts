import type { Knex } from 'knex';
import type { Context } from 'koa';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntityMeta, FieldMeta, MetaModel } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { allows } from '../auth/ability.ts';
import { ApiError, notFound, validationError } from '../kernel/errors.ts';
import { rawBody } from '../http/raw-body.ts';
import { dataDir } from '../db/connection.ts';
import { Repository } from './repository.ts';
import { q } from './sql.ts';

/**
 * Files: what an upload is (read from its bytes, never from the client), where it is kept (once
 * per content, under ECOFOND_DATA_DIR/uploads), and who may read it back: whoever uploaded it, and
 * whoever may read a row that holds it. Ids are random (53 bits), so they cannot be walked.
 */

/** Files larger than this are refused whatever their type says (a field may lower it). */
export const UPLOAD_LIMIT_MB = Number(process.env.ECOFOND_UPLOAD_LIMIT_MB || 20);

const OFFICE: Record<string, { mime: string; part: string }> = {
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', part: 'xl/workbook.xml' },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', part: 'word/document.xml' },
};

/** The names of a zip archive's entries, from its central directory; null when it is not a readable zip. */
export function zipEntries(b: Buffer): string[] | null {
  // the end-of-central-directory record: in the last 22 + 65535 bytes
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 65535); i--) {
    if (b.readUInt32LE(i) !== 0x06054b50) continue;
    const count = b.readUInt16LE(i + 10);
    let at = b.readUInt32LE(i + 16);
    const names: string[] = [];
    for (let n = 0; n < count; n++) {
      if (at + 46 > b.length || b.readUInt32LE(at) !== 0x02014b50) return null;
      const nameLength = b.readUInt16LE(at + 28);
      const extra = b.readUInt16LE(at + 30);
      const comment = b.readUInt16LE(at + 32);
      names.push(b.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
      at += 46 + nameLength + extra + comment;
    }
    return names;
  }
  return null;
}

/** What a file's first bytes say it is, for the types the system accepts; null when unknown. */
export function sniffMime(b: Buffer, name = ''): string | null {
  const starts = (...bytes: number[]) => bytes.every((x, i) => b[i] === x);
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'application/pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  // ISO media (MP4, QuickTime): a box `ftyp` at byte 4 whose major brand names the kind; still images (HEIF) are not taken
  if (b.length >= 12 && b.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = b.subarray(8, 12).toString('latin1');
    if (brand === 'qt  ') return 'video/quicktime';
    if (/^(isom|iso[2-9]|mp4[12]|avc1|M4V |MSNV|dash|3gp[4-6])$/.test(brand)) return 'video/mp4';
    return null;
  }
  // Matroska / WebM: the EBML header with the doc type "webm"
  if (starts(0x1a, 0x45, 0xdf, 0xa3) && b.subarray(0, 64).includes(Buffer.from('webm', 'latin1'))) return 'video/webm';
  if (starts(0x50, 0x4b, 0x03, 0x04)) {
    // an Office document is a zip with its parts: a bare zip named .xlsx is not a spreadsheet
    const office = OFFICE[name.split('.').pop()?.toLowerCase() ?? ''];
    if (!office) return 'application/zip';
    const entries = zipEntries(b);
    return entries?.includes('[Content_Types].xml') && entries.includes(office.part) ? office.mime : null;
  }
  return null;
}

/** A random id under 2^53 (a JavaScript-safe integer), never 0. */
export function randomId(): number {
  return Number(randomBytes(8).readBigUInt64BE(0) >> 11n) + 1;
}

/**
 * Stores the request body as a file: `?name=` required, type read from the bytes (and limited to
 * images — or images and videos, a video up to `videoLimitMb` — when asked), kept once per content,
 * registered in `resources` under a random id.
 */
export async function storeUpload(knex: Knex, ctx: Context, o: { limitMb: number; userId: number | null; imagesOnly?: boolean; videoLimitMb?: number }) {
  const name = String(ctx.query.name ?? '').replace(/[\\/\0]/g, '_').trim().slice(0, 255);
  if (!name) throw validationError({ name: { key: 'validation.required' } });
  const body = await rawBody(ctx, Math.max(o.limitMb, o.videoLimitMb ?? 0) * 1024 * 1024);
  const mime = sniffMime(body, name);
  const video = o.videoLimitMb !== undefined && !!mime?.startsWith('video/');
  if (!mime || (o.imagesOnly && !mime.startsWith('image/') && !video)) throw validationError({ file: { key: o.imagesOnly ? (o.videoLimitMb ? 'errors.image_video_type' : 'errors.image_type') : 'errors.file_type' } });
  const limitMb = video ? o.videoLimitMb! : o.limitMb;
  if (body.length > limitMb * 1024 * 1024) throw new ApiError('tooLarge', 'errors.file_too_large', { mb: limitMb });
  return storeBytes(knex, { name, mime, body, userId: o.userId });
}

/**
 * Keeps bytes the server made or checked (an upload, a printed document's PDF) as a file: once per
 * content under the data folder, registered in `resources` under a random id (in the caller's
 * transaction when given one).
 */
export async function storeBytes(knex: Knex | Knex.Transaction, o: { name: string; mime: string; body: Buffer; userId: number | null }) {
  const { name, mime, body } = o;
  const sha256 = createHash('sha256').update(body).digest('hex');
  const rel = join('uploads', sha256.slice(0, 2), sha256);
  const file = join(dataDir(), rel);
  if (!existsSync(file)) {
    mkdirSync(join(dataDir(), 'uploads', sha256.slice(0, 2)), { recursive: true });
    writeFileSync(file, body);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await knex('resources').insert({
        id: randomId(), original_name: name, mime, size: body.length, storage_path: rel, sha256, created_by: o.userId,
      }).returning(['id', 'original_name', 'mime', 'size', 'sha256']);
      return row as { id: number; original_name: string; mime: string; size: number; sha256: string };
    } catch (err) {
      if ((err as { code?: string }).code !== '23505' || attempt > 3) throw err;
    }
  }
}

/**
 * Answers a stored file: images and PDFs inline, others as attachments. A stored file is the
 * uploader's bytes: it is sandboxed, so nothing in it can run as the site.
 */
export async function sendResource(ctx: Context, knex: Knex, id: number, cacheControl: string): Promise<void> {
  if (!Number.isSafeInteger(id) || id < 1) throw notFound();
  const row = await knex('resources').where({ id }).first();
  if (!row) throw notFound();
  const file = join(dataDir(), row.storage_path);
  if (!existsSync(file)) throw new ApiError('notFound');
  ctx.type = row.mime;
  ctx.set('Content-Disposition', `${row.mime.startsWith('image/') || row.mime === 'application/pdf' ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.original_name)}`);
  ctx.set('Cache-Control', cacheControl);
  if (row.mime !== 'application/pdf') ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
  ctx.body = createReadStream(file);
}

const FILE_TYPES = new Set(['file', 'image', 'files']);

/** A column that keeps file ids: a field of the entity, or a column of one of its child tables (`child`, under the children field `parent`). */
export interface FileColumn { field: string; f: FieldMeta; child?: FieldMeta; parent?: string }

const fileColumnsOf = new WeakMap<EntityMeta, FileColumn[]>();

/** Where an entity keeps file ids: its own columns, and its child tables' columns. */
export function fileColumns(e: EntityMeta): FileColumn[] {
  let out = fileColumnsOf.get(e);
  if (out) return out;
  out = [];
  for (const [name, f] of Object.entries(e.fields)) {
    if (FILE_TYPES.has(f.type)) out.push({ field: name, f });
    if (f.type === 'children') for (const [cn, cf] of Object.entries(f.fields ?? {})) if (FILE_TYPES.has(cf.type)) out.push({ field: cn, f: cf, child: f, parent: name });
  }
  fileColumnsOf.set(e, out);
  return out;
}

/** A condition "this row (alias t) holds the file x.id" — x the candidate ids' set. */
function holds(knex: Knex, col: FileColumn): Knex.Raw {
  const match = (alias: string) => (col.f.type === 'files' ? `${alias}.${q(col.field)} @> ARRAY[x.id]` : `${alias}.${q(col.field)} = x.id`);
  if (!col.child) return knex.raw(match('t'));
  return knex.raw(`exists (select 1 from ${q(col.child.table!)} c where c.${q(col.child.parentKey ?? 'parent_id')} = t.id and ${match('c')})`);
}

/**
 * The files of `ids` the caller may read: those they uploaded, those a row they may read holds (in
 * their scope), and those a workflow step of a row they may read carries. Set-wise: one query for
 * the uploads, then one an entity with file columns (all the ids still unanswered at once), until
 * every id is answered; in the caller's transaction when given one.
 */
export async function readableFiles(db: Knex | Knex.Transaction, model: MetaModel, principal: Principal, ids: readonly number[], lang: 'uz' | 'uk' | 'ru' = 'uz', knex: Knex = db as Knex): Promise<Set<number>> {
  const out = new Set<number>();
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (!wanted.length) return out;
  let open: number[] = [];
  for (let i = 0; i < wanted.length; i += 5000) {
    for (const r of await db('resources').whereIn('id', wanted.slice(i, i + 5000)).select('id', 'created_by')) {
      if (r.created_by !== null && Number(r.created_by) === principal.id) out.add(Number(r.id));
      else open.push(Number(r.id));
    }
  }
  const ctx = { knex, model, principal, lang, trx: db === knex ? undefined : (db as Knex.Transaction) };
  const settle = (found: unknown[]) => {
    for (const id of found) out.add(Number(id));
    open = open.filter((id) => !out.has(id));
  };
  for (const e of model.entities.values()) {
    if (!open.length) return out;
    if (!allows(e, 'read', principal)) continue;
    const cols = fileColumns(e);
    if (!cols.length) continue;
    const rows = new Repository(ctx, e).scoped('read', db).where((w) => { for (const c of cols) w.orWhere(holds(knex, c)); }).select(knex.raw('1'));
    settle(await db.select('x.id').from(knex.raw('unnest(?::bigint[]) as x(id)', [open])).whereExists(rows).pluck('x.id'));
  }
  if (!open.length) return out;
  const flows = await db('flows').whereIn('resource_id', open).select('entity', 'record_id', 'resource_id');
  for (const f of flows) {
    const e = model.entities.get(f.entity);
    if (!e || out.has(Number(f.resource_id)) || !allows(e, 'read', principal)) continue;
    if (await new Repository(ctx, e).scoped('read', db).where('t.id', f.record_id).first('t.id')) out.add(Number(f.resource_id));
  }
  return out;
}

/** Whether the caller may read a file (readableFiles of one id). */
export async function mayReadFile(knex: Knex, model: MetaModel, principal: Principal, id: number, lang: 'uz' | 'uk' | 'ru' = 'uz'): Promise<boolean> {
  return (await readableFiles(knex, model, principal, [id], lang)).has(id);
}
