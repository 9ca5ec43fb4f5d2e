import { filenameOf, LONG_TIMEOUT, request, requestBlob } from './http';

/** An uploaded file as `resources/upload` answers it. */
export interface ResourceInfo {
  id: number;
  original_name: string;
  mime: string;
  size: number;
}

/** What is known of each file id this session: from its upload, or from the headers of a download. */
const known = new Map<number, ResourceInfo>();
const pending = new Map<number, Promise<ResourceInfo>>();

/**
 * Sends one file as the request body (not multipart) to `POST /api/resources/upload?name=…`,
 * within the 120-second timeout of uploads (spec §9). The server reads its type from its bytes.
 */
export async function uploadFile(file: File): Promise<ResourceInfo> {
  const res = await request(`/api/resources/upload?name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    body: file,
    timeout: LONG_TIMEOUT,
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
  });
  const info = (await res.json()) as ResourceInfo;
  known.set(info.id, info);
  return info;
}

/** The name, type and size of a stored file: asked with HEAD (the same headers as the download). */
export function fileInfo(id: number): Promise<ResourceInfo> {
  const k = known.get(id);
  if (k) return Promise.resolve(k);
  let p = pending.get(id);
  if (!p) {
    p = request(`/api/resources/${id}`, { method: 'HEAD', headers: { Accept: '*/*' } })
      .then((res) => {
        const info: ResourceInfo = {
          id,
          original_name: filenameOf(res, `#${id}`),
          mime: (res.headers.get('Content-Type') ?? 'application/octet-stream').split(';')[0],
          size: Number(res.headers.get('Content-Length') ?? 0),
        };
        known.set(id, info);
        return info;
      })
      .finally(() => pending.delete(id));
    pending.set(id, p);
  }
  return p;
}

/** The file itself, with the bearer token (a plain link could not carry it). */
export async function fileBlob(id: number): Promise<{ blob: Blob; name: string }> {
  const { res, blob } = await requestBlob(`/api/resources/${id}`, { timeout: LONG_TIMEOUT, headers: { Accept: '*/*' } });
  const name = filenameOf(res, known.get(id)?.original_name ?? `file-${id}`);
  return { blob, name };
}

/** Saves a stored file as a download. */
export async function downloadFile(id: number): Promise<void> {
  const { blob, name } = await fileBlob(id);
  saveBlob(blob, name);
}

/** Hands a fetched body to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Whether a file type is among a field's accepted types (`image/*` style wildcards allowed). */
export function accepts(accept: string[] | undefined, mime: string, name: string): boolean {
  if (!accept?.length) return true;
  const ext = name.includes('.') ? `.${name.split('.').pop()!.toLowerCase()}` : '';
  return accept.some((a) => {
    const x = a.toLowerCase();
    if (x.startsWith('.')) return x === ext;
    if (x.endsWith('/*')) return mime.toLowerCase().startsWith(x.slice(0, -1));
    return x === mime.toLowerCase();
  });
}

/** "1.5 MB", "320 KB" */
export function formatSize(bytes: number): string {
  if (!bytes) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
