import type { Context } from 'koa';
import { ApiError } from './errors.ts';

/** Reads a request's raw body (an uploaded file) up to `limit` bytes; more is a 400, not a memory problem. */
export async function rawBody(ctx: Context, limitBytes: number, emptyKey = 'errors.file_empty'): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limitBytes) throw new ApiError('tooLarge', 'errors.file_too_large', { mb: Math.round(limitBytes / 1048576) });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw new ApiError('tooLarge', 'errors.file_too_large', { mb: Math.round(limitBytes / 1048576) });
    chunks.push(chunk);
  }
  if (!size) throw new ApiError('badRequest', emptyKey);
  return Buffer.concat(chunks);
}
