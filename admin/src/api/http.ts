import { HttpError } from 'react-admin';
import { currentCode, i18n, wireLangOf, type WireLang } from '../i18n';
import { errorHead } from './errorHead';
import { getToken } from './session';

/** Spec §9: base timeout 60 s; uploads and Excel 120 s. */
export const BASE_TIMEOUT = 60_000;
export const LONG_TIMEOUT = 120_000;

/** Error codes of the API (api/http/errors.ts) the back-office reacts to. */
export const CODES = { system: -201, unauthorized: -101, sessionExpired: -102, forbidden: -103, validation: -105, stale: -106 } as const;

/**
 * The description of each error notification, by its title. react-admin notifies with an error's
 * message only; the notification component looks the description (the API's `description`) up here.
 */
const descriptions = new Map<string, string>();
export function describeError(title: string): string | undefined {
  return descriptions.get(title);
}
function remember(title: string, description: string | undefined): void {
  if (!description) return;
  descriptions.set(title, description);
  if (descriptions.size > 200) descriptions.delete(descriptions.keys().next().value as string);
}

export interface ApiErrorBody {
  code?: number;
  message?: string;
  description?: string;
  errors?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeout?: number;
  signal?: AbortSignal;
  /** the Language header; default: the language shown */
  lang?: WireLang;
  /** skip the bearer token (login) */
  anonymous?: boolean;
}

/** The language sent with every request: the one shown, as the API spells it (uk = Uzbek Cyrillic). */
export function wireLang(): WireLang {
  return wireLangOf(currentCode());
}

/**
 * fetch with the token, the Language header and a timeout. Errors are react-admin HttpErrors:
 * the API's `{code, message, description, errors}` becomes a message "message (code)", a
 * description remembered for the notification, and `body.errors` for the form fields (with
 * `root.serverError`, which react-admin notifies). A lost connection and a timeout carry caption
 * keys that the notification translates.
 */
export async function request(url: string, opts: RequestOptions = {}): Promise<Response> {
  return send(url, opts, async (res) => res);
}

/** A request answered with JSON, read within the same timeout. */
export async function requestJson<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  return send(url, opts, async (res) => {
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  });
}

/** A request whose body is read within the same timeout (downloads). */
export async function requestBlob(url: string, opts: RequestOptions = {}): Promise<{ res: Response; blob: Blob }> {
  return send(url, opts, async (res) => ({ res, blob: await res.blob() }));
}

async function send<T>(url: string, opts: RequestOptions, consume: (res: Response) => Promise<T>): Promise<T> {
  const headers = new Headers(opts.headers);
  headers.set('Accept', headers.get('Accept') ?? 'application/json');
  headers.set('Language', opts.lang ?? wireLang());
  const token = getToken();
  if (token && !opts.anonymous) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (opts.body instanceof Blob || opts.body instanceof ArrayBuffer || ArrayBuffer.isView(opts.body)) {
    // a file sent as it is (uploads, statement imports): never multipart
    body = opts.body as BodyInit;
    if (!headers.has('Content-Type'))
      headers.set('Content-Type', (opts.body instanceof Blob && opts.body.type) || 'application/octet-stream');
  } else if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  }

  const ctrl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctrl.abort();
  }, opts.timeout ?? BASE_TIMEOUT);
  const onAbort = () => ctrl.abort();
  opts.signal?.addEventListener('abort', onAbort);
  try {
    let res: Response;
    try {
      res = await fetch(url, { method: opts.method ?? 'GET', headers, body, signal: ctrl.signal });
      if (!res.ok) throw await toHttpError(res);
      return await consume(res);
    } catch (err) {
      if (err instanceof HttpError) throw err;
      if (opts.signal?.aborted) throw err;
      const key = timedOut ? 'admin.errors.timeout' : 'admin.errors.connection';
      remember(key, `${key}_description`);
      throw new HttpError(key, 0, { code: 0, message: key, description: `${key}_description` });
    }
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

async function toHttpError(res: Response): Promise<HttpError> {
  let body: ApiErrorBody;
  try {
    const text = await res.text();
    body = text ? (JSON.parse(text) as ApiErrorBody) : {};
  } catch {
    body = {};
  }
  // not the API's answer (a bare "Internal Server Error", a proxy's page): the spec's default error, "System error (-201)"
  const { title, code, description } = errorHead(body, i18n.t('admin.errors.system'));
  remember(title, description);
  const out: ApiErrorBody = { ...body, code, message: title };
  if (body.errors && typeof body.errors === 'object' && Object.keys(body.errors).length) {
    out.errors = { ...body.errors, root: { serverError: title } };
  } else {
    delete out.errors;
  }
  return new HttpError(title, res.status, out);
}

/** JSON request in the shape react-admin's simple REST provider expects of its httpClient. */
export async function fetchJson(
  url: string,
  options: { method?: string; body?: BodyInit | null; headers?: HeadersInit; signal?: AbortSignal | null } = {},
) {
  const headers: Record<string, string> = {};
  new Headers(options.headers).forEach((v, k) => {
    // simple-rest sends `Range` on lists and `Content-Type: text/plain` on deletes; neither is needed
    if (k !== 'range' && k !== 'content-type') headers[k] = v;
  });
  const res = await request(url, {
    method: options.method,
    body: options.body === null || options.body === undefined ? undefined : (options.body as string),
    headers,
    signal: options.signal ?? undefined,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, body: text, json };
}

/** Name of a download from Content-Disposition. */
export function filenameOf(res: Response, fallback: string): string {
  const cd = res.headers.get('Content-Disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(cd);
  return plain ? plain[1] : fallback;
}
