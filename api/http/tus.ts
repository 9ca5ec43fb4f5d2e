import type { Knex } from 'knex';
import type { MetaModel } from '../meta/types.ts';
import type { AppContext } from './middleware.ts';
import { Server } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../db/connection.ts';
import { storeUploaded, UPLOAD_LIMIT_MB } from '../engine/files.ts';
import { ApiError } from '../kernel/errors.ts';
import { translate } from '../meta/captions.ts';

/**
 * Resumable uploads (issue 30, docs/field-app.md): the tus protocol 1.0 (`@tus/server` with its
 * file store) under /api/uploads/tus, behind the API's Bearer sign-in. An upload is its creator's:
 * its id begins with their user id, and another user's id is a 404. Its bytes gather under
 * ECOFOND_DATA_DIR/uploads-tus; once complete they are checked and kept as any upload is
 * (engine/files.ts's storeUploaded: type from the bytes, the same size limit) and become a
 * `resources` row of the uploader, whose id is answered in `Ecofond-Resource-Id` — on the final
 * PATCH and on every HEAD after it. The id is remembered beside the upload, so a completion sent
 * again (its answer lost) gives the same file, not a second one.
 */

/** The path the protocol is served at (a creation POST; HEAD, PATCH, DELETE of an upload below it). */
export const TUS_PATH = '/api/uploads/tus';
export const RESOURCE_HEADER = 'Ecofond-Resource-Id';
const USER = 'x-ecofond-user';
const LANG = 'x-ecofond-lang';

/** Unfinished uploads are kept this long (ECOFOND_TUS_EXPIRE_HOURS, default 72): a device offline longer starts the file again. */
const EXPIRE_MS = Number(process.env.ECOFOND_TUS_EXPIRE_HOURS || 72) * 3600_000;

export const tusDir = () => join(dataDir(), 'uploads-tus');
const resourceFile = (id: string) => join(tusDir(), `${id}.resource`);

/** The resource an upload became, if it is complete and kept. */
export function uploadResource(id: string): number | null {
  if (!/^[0-9]+-[0-9a-f]+$/.test(id)) return null;
  const f = resourceFile(id);
  return existsSync(f) ? Number(readFileSync(f, 'utf8')) : null;
}

const servers = new WeakMap<Knex, { model: MetaModel; server: Server }>();

/** The tus server of a database (one a process: its lock is in memory, so an upload is written by one request at a time). */
function tusServer(knex: Knex, model: MetaModel): Server {
  const had = servers.get(knex);
  if (had) {
    had.model = model;
    return had.server;
  }
  const held = { model, server: undefined as unknown as Server };
  const fail = (req: Request, status: number, key: string, field?: string): never => {
    const lang = (req.headers.get(LANG) ?? 'uz') as 'uz' | 'uk' | 'ru';
    const t = (k: string, args?: Record<string, unknown>) => translate(held.model, lang, k, args);
    const e = new ApiError(status === 404 ? 'notFound' : 'validation', key, { mb: UPLOAD_LIMIT_MB });
    throw {
      status_code: status,
      body: JSON.stringify({
        code: e.code,
        message: t(key, { mb: UPLOAD_LIMIT_MB }),
        description: '',
        ...(field ? { errors: { [field]: t(key, { mb: UPLOAD_LIMIT_MB }) } } : {}),
      }),
    };
  };
  const userOf = (req: Request) => {
    const id = Number(req.headers.get(USER));
    if (!Number.isSafeInteger(id) || id < 1) throw new Error('tus: a request without its signed-in user');
    return id;
  };
  held.server = new Server({
    path: TUS_PATH,
    relativeLocation: true,
    datastore: new FileStore({ directory: tusDir(), expirationPeriodInMilliseconds: EXPIRE_MS }),
    maxSize: UPLOAD_LIMIT_MB * 1024 * 1024,
    exposedHeaders: [RESOURCE_HEADER],
    namingFunction: (req) => `${userOf(req)}-${randomBytes(16).toString('hex')}`,
    onIncomingRequest: async (req, id) => {
      // another user's upload does not exist for the caller
      if (!id.startsWith(`${userOf(req)}-`)) fail(req, 404, 'errors.notFound');
    },
    onUploadCreate: async (req, upload) => {
      const name = String(upload.metadata?.filename ?? upload.metadata?.name ?? '').trim();
      if (!name) fail(req, 400, 'validation.required', 'name');
      return {};
    },
    onUploadFinish: async (req, upload) => {
      const known = uploadResource(upload.id);
      if (known) return { headers: { [RESOURCE_HEADER]: String(known) } };
      const name = String(upload.metadata?.filename ?? upload.metadata?.name ?? 'file')
        .replace(/[\\/\0]/g, '_')
        .trim()
        .slice(0, 255);
      let row: { id: number };
      try {
        row = await storeUploaded(knex, name, readFileSync(join(tusDir(), upload.id)), { limitMb: UPLOAD_LIMIT_MB, userId: userOf(req) });
      } catch (err) {
        if (err instanceof ApiError) fail(req, 400, err.fieldErrors?.file?.key ?? err.messageKey, 'file');
        throw err;
      }
      writeFileSync(resourceFile(upload.id), String(row!.id));
      return { headers: { [RESOURCE_HEADER]: String(row!.id) } };
    },
  });
  servers.set(knex, held);
  // hourly: unfinished uploads past their hours go, and finished ones' staged bytes (kept as a file already) once as old
  setInterval(() => {
    held.server.cleanUpExpiredUploads().catch(() => undefined);
    removeFinished(Date.now() - EXPIRE_MS);
  }, 3600_000).unref();
  return held.server;
}

/** Removes finished uploads completed before `before` (ms): their bytes, their tus record and the id they became. */
export function removeFinished(before: number): number {
  const dir = tusDir();
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.resource')) continue;
    const id = f.slice(0, -'.resource'.length);
    try {
      if (statSync(join(dir, f)).mtimeMs >= before) continue;
      for (const p of [id, `${id}.json`, f]) rmSync(join(dir, p), { force: true });
      n++;
    } catch {
      /* gone meanwhile */
    }
  }
  return n;
}

/**
 * Hands a signed-in request to the tus server: the caller (and their language) told it in headers
 * the client cannot set, a HEAD of a finished upload answered its resource id too.
 */
export async function handleTus(ctx: AppContext, knex: Knex, model: MetaModel): Promise<void> {
  const principal = ctx.state.principal;
  if (!principal) throw new ApiError('unauthorized');
  // the tus server reads the request's raw headers: whatever the client sent under these names goes, ours are put in
  const raw = ctx.req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if ([USER, LANG].includes(raw[i].toLowerCase())) raw.splice(i, 2);
  raw.push(USER, String(principal.id), LANG, ctx.state.lang);
  ctx.req.headers[USER] = String(principal.id);
  ctx.req.headers[LANG] = ctx.state.lang;
  const id = ctx.path.startsWith(`${TUS_PATH}/`) ? ctx.path.slice(TUS_PATH.length + 1) : '';
  if (ctx.method === 'HEAD' && id.startsWith(`${principal.id}-`)) {
    const known = uploadResource(id);
    if (known) ctx.res.setHeader(RESOURCE_HEADER, String(known));
  }
  ctx.respond = false;
  await tusServer(knex, model).handle(ctx.req, ctx.res);
}
