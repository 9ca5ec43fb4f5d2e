import type { Context } from 'koa';
import type { Knex } from 'knex';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, notFound, validationError } from './errors.ts';
import { rawBody } from './raw-body.ts';
import { dataDir } from '../db/connection.ts';
import { storeUploaded, type UploadLimits } from '../engine/files.ts';
import { storedFile } from '../read-models/files.ts';

/**
 * Stores the request body as a file: `?name=` required, the bytes read within the limit, then
 * checked and kept by the engine (files.ts's storeUploaded).
 */
export async function storeUpload(knex: Knex, ctx: Context, o: UploadLimits) {
  const name = String(ctx.query.name ?? '')
    .replace(/[\\/\0]/g, '_')
    .trim()
    .slice(0, 255);
  if (!name) throw validationError({ name: { key: 'validation.required' } });
  const body = await rawBody(ctx, Math.max(o.limitMb, o.videoLimitMb ?? 0) * 1024 * 1024);
  return storeUploaded(knex, name, body, o);
}

/**
 * Answers a stored file: images and PDFs inline, others as attachments. A stored file is the
 * uploader's bytes: it is sandboxed, so nothing in it can run as the site.
 */
export async function sendResource(ctx: Context, knex: Knex, id: number, cacheControl: string): Promise<void> {
  if (!Number.isSafeInteger(id) || id < 1) throw notFound();
  const row = await storedFile(knex, id);
  if (!row) throw notFound();
  const file = join(dataDir(), row.storage_path);
  if (!existsSync(file)) throw new ApiError('notFound');
  ctx.type = row.mime;
  ctx.set(
    'Content-Disposition',
    `${row.mime.startsWith('image/') || row.mime === 'application/pdf' ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.original_name)}`,
  );
  ctx.set('Cache-Control', cacheControl);
  if (row.mime !== 'application/pdf')
    ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
  ctx.body = createReadStream(file);
}
