import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context, Middleware } from 'koa';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppState } from './middleware.ts';
import { ApiError, notFound, validationError } from './errors.ts';
import { rawBody } from './raw-body.ts';
import { dataDir } from '../db/connection.ts';

/** Files larger than this are refused whatever their type says (a type may lower it). */
export const UPLOAD_LIMIT_MB = Number(process.env.ECOFOND_UPLOAD_LIMIT_MB || 20);

/** What a file's first bytes say it is, for the types the system accepts; null when unknown. */
export function sniffMime(b: Buffer): string | null {
  const starts = (...bytes: number[]) => bytes.every((x, i) => b[i] === x);
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'application/pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'application/zip'; // also .xlsx and .docx
  return null;
}

const OFFICE: Record<string, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * `resources/upload`: the file is the request body (its name in `?name=`); its type is read from
 * its first bytes, not trusted from the client, and must be one the system accepts; it is stored
 * under ECOFOND_DATA_DIR/uploads by its SHA-256 and registered in `resources`. `GET resources/:id`
 * gives it back to signed-in users.
 */
export function resourceRoutes(knex: Knex, guard: Middleware<AppState>): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/resources' });

  router.post('/upload', guard, async (ctx) => {
    ctx.status = 201;
    ctx.body = await storeUpload(knex, ctx, { limitMb: UPLOAD_LIMIT_MB, userId: ctx.state.principal!.id });
  });

  router.get('/:id', guard, async (ctx) => {
    await sendResource(ctx, knex, Number(ctx.params.id), 'private, max-age=86400');
  });
  return router;
}

/** Answers a stored file: images and PDFs inline, others as attachments. */
export async function sendResource(ctx: Context, knex: Knex, id: number, cacheControl: string): Promise<void> {
  if (!Number.isSafeInteger(id)) throw notFound();
  const row = await knex('resources').where({ id }).first();
  if (!row) throw notFound();
  const file = join(dataDir(), row.storage_path);
  if (!existsSync(file)) throw new ApiError('notFound');
  ctx.type = row.mime;
  ctx.set('Content-Disposition', `${row.mime.startsWith('image/') || row.mime === 'application/pdf' ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.original_name)}`);
  ctx.set('Cache-Control', cacheControl);
  ctx.body = createReadStream(file);
}

/**
 * Stores the request body as a file: `?name=` required, type read from the bytes (and limited to
 * `images` when asked), kept once per content under ECOFOND_DATA_DIR/uploads, registered in
 * `resources`.
 */
export async function storeUpload(knex: Knex, ctx: Context, o: { limitMb: number; userId: number | null; imagesOnly?: boolean }) {
  const name = String(ctx.query.name ?? '').replace(/[\\/\0]/g, '_').trim().slice(0, 255);
  if (!name) throw validationError({ name: { key: 'validation.required' } });
  const body = await rawBody(ctx, o.limitMb * 1024 * 1024);
  let mime = sniffMime(body);
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  if (mime === 'application/zip' && OFFICE[ext]) mime = OFFICE[ext];
  if (!mime || (o.imagesOnly && !mime.startsWith('image/'))) throw validationError({ file: { key: o.imagesOnly ? 'errors.image_type' : 'errors.file_type' } });
  const sha256 = createHash('sha256').update(body).digest('hex');
  const rel = join('uploads', sha256.slice(0, 2), sha256);
  const file = join(dataDir(), rel);
  if (!existsSync(file)) {
    mkdirSync(join(dataDir(), 'uploads', sha256.slice(0, 2)), { recursive: true });
    writeFileSync(file, body);
  }
  const [row] = await knex('resources').insert({
    original_name: name, mime, size: body.length, storage_path: rel, sha256, created_by: o.userId,
  }).returning(['id', 'original_name', 'mime', 'size', 'sha256']);
  return row as { id: number; original_name: string; mime: string; size: number; sha256: string };
}
