import type { RouteHandler } from '../types.ts';
import { mayReadFile, UPLOAD_LIMIT_MB } from '../../engine/files.ts';
import { sendResource, storeUpload } from '../../http/uploads.ts';
import { notFound } from '../../kernel/errors.ts';
import { handleTus } from '../../http/tus.ts';

/**
 * `resources/upload`: the file is the request body (its name in `?name=`), typed by its bytes and
 * kept once per content; `resources/:id` gives it back to its uploader and to whoever may read a
 * row that holds it — to anyone else it does not exist.
 */
export const FILE_HANDLERS: Record<string, RouteHandler> = {
  'system.upload': async (ctx, { knex, principal }) => {
    ctx.status = 201;
    ctx.body = await storeUpload(knex, ctx, { limitMb: UPLOAD_LIMIT_MB, userId: principal!.id });
  },
  // a resumable upload's creation (tus); its HEAD, PATCH and DELETE are mounted beside the routes (api/app.ts)
  'system.tus': (ctx, { knex, model }) => handleTus(ctx, knex, model),
  'system.resource': async (ctx, { knex, model, principal, id, lang }) => {
    if (!(await mayReadFile(knex, model, principal!, id!, lang))) throw notFound();
    await sendResource(ctx, knex, id!, 'private, max-age=86400');
  },
};
