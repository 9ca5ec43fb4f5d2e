import type { Knex } from 'knex';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetaModel } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { ApiError, validationError } from '../kernel/errors.ts';
import { dataDir } from '../db/connection.ts';
import { Repository } from './repository.ts';
import { filesReadable } from './file-access.ts';

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
 * Stores an uploaded file's bytes (api/http/uploads.ts reads them from the request): type read from
 * the bytes (and limited to images — or images and videos, a video up to `videoLimitMb` — when
 * asked), kept once per content, registered in `resources` under a random id.
 */
export async function storeUploaded(knex: Knex, name: string, body: Buffer, o: UploadLimits) {
  const mime = sniffMime(body, name);
  const video = o.videoLimitMb !== undefined && !!mime?.startsWith('video/');
  if (!mime || (o.imagesOnly && !mime.startsWith('image/') && !video))
    throw validationError({
      file: { key: o.imagesOnly ? (o.videoLimitMb ? 'errors.image_video_type' : 'errors.image_type') : 'errors.file_type' },
    });
  const limitMb = video ? o.videoLimitMb! : o.limitMb;
  if (body.length > limitMb * 1024 * 1024) throw new ApiError('tooLarge', 'errors.file_too_large', { mb: limitMb });
  return storeBytes(knex, { name, mime, body, userId: o.userId });
}

/** What an upload may be: its size in MB (a video's apart), images only, and who uploads it. */
export interface UploadLimits {
  limitMb: number;
  userId: number | null;
  imagesOnly?: boolean;
  videoLimitMb?: number;
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
      const [row] = await knex('resources')
        .insert({
          id: randomId(),
          original_name: name,
          mime,
          size: body.length,
          storage_path: rel,
          sha256,
          created_by: o.userId,
        })
        .returning(['id', 'original_name', 'mime', 'size', 'sha256']);
      return row as { id: number; original_name: string; mime: string; size: number; sha256: string };
    } catch (err) {
      if ((err as { code?: string }).code !== '23505' || attempt > 3) throw err;
    }
  }
}

/**
 * The files of `ids` the caller may read (file-access.ts's filesReadable, each entity's rows read
 * through the caller's repository): those they uploaded, those a row they may read holds, those a
 * workflow step of a row they may read carries; in the caller's transaction when given one.
 */
export async function readableFiles(
  db: Knex | Knex.Transaction,
  model: MetaModel,
  principal: Principal,
  ids: readonly number[],
  lang: 'uz' | 'uk' | 'ru' = 'uz',
  knex: Knex = db as Knex,
): Promise<Set<number>> {
  const ctx = { knex, model, principal, lang, trx: db === knex ? undefined : (db as Knex.Transaction) };
  return filesReadable(db, model, principal, ids, knex, (e) => new Repository(ctx, e).scoped('read', db));
}

/** Whether the caller may read a file (readableFiles of one id). */
export async function mayReadFile(
  knex: Knex,
  model: MetaModel,
  principal: Principal,
  id: number,
  lang: 'uz' | 'uk' | 'ru' = 'uz',
): Promise<boolean> {
  return (await readableFiles(knex, model, principal, [id], lang)).has(id);
}
