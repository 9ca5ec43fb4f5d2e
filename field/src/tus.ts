import { call, HttpError } from './api';
import type { Lang } from './i18n';
import type { Photo } from './db';

/**
 * A small tus 1.0 client for the API's /api/uploads/tus (docs/field-app.md): create the upload
 * (its URL kept with the photo in IndexedDB before any byte goes), send the bytes from the offset
 * the server has, and read the file's id from `Ecofond-Resource-Id`. A cut-off PATCH or a lost
 * answer is resumed with HEAD. Hand-written rather than tus-js-client (~20 kB compressed): one
 * PATCH a photo is all a resized photo needs (docs/decisions/0072).
 */
const TUS = { 'Tus-Resumable': '1.0.0' };
const ENDPOINT = '/api/uploads/tus';

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
const idOf = (res: Response) => {
  const v = res.headers.get('Ecofond-Resource-Id');
  return v ? Number(v) : undefined;
};

/** Uploads a photo (or finishes its upload) and answers its file id; `save` keeps the upload URL as soon as it exists. */
export async function uploadPhoto(p: Photo, lang: Lang, save: (p: Photo) => Promise<void>): Promise<number> {
  if (p.resourceId) return p.resourceId;
  let offset = 0;
  if (p.uploadUrl) {
    try {
      const head = await call(p.uploadUrl, { method: 'HEAD', headers: TUS, lang });
      const id = idOf(head);
      if (id) return id;
      offset = Number(head.headers.get('Upload-Offset') ?? 0);
    } catch (err) {
      // expired or gone: start again
      if (!(err instanceof HttpError) || ![404, 410].includes(err.status)) throw err;
      p.uploadUrl = undefined;
    }
  }
  if (!p.uploadUrl) {
    const res = await call(ENDPOINT, {
      method: 'POST',
      headers: { ...TUS, 'Upload-Length': String(p.blob.size), 'Upload-Metadata': `filename ${b64(p.name)},filetype ${b64(p.blob.type)}` },
      lang,
    });
    const loc = res.headers.get('Location');
    if (!loc) throw new HttpError(500, { message: 'tus: no Location' });
    p.uploadUrl = new URL(loc, location.href).pathname;
    await save(p);
  }
  const res = await call(p.uploadUrl, {
    method: 'PATCH',
    headers: { ...TUS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
    body: p.blob.slice(offset),
    lang,
  });
  const id = idOf(res);
  if (!id) throw new HttpError(500, { message: 'tus: no file id' });
  return id;
}
