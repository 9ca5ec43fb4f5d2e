/**
 * Errors the API answers with: `{code, message, description, errors?}`, the message in the
 * caller's language. `code` is a stable number a client may switch on; `message` and field errors
 * are caption keys translated by the error middleware.
 */
export const ERROR_CODES = {
  system: -201,
  unauthorized: -101,
  sessionExpired: -102,
  forbidden: -103,
  notFound: -104,
  validation: -105,
  stale: -106,
  inUse: -107,
  badRequest: -108,
  loginFailed: -109,
  tooLarge: -110,
  userBlocked: -111,
  tooManyAttempts: -112,
  workflow: -113,
  unprocessable: -114,
  busy: -115,
} as const;

export type ErrorKind = keyof typeof ERROR_CODES;

const STATUS: Record<ErrorKind, number> = {
  system: 500,
  unauthorized: 401,
  sessionExpired: 401,
  forbidden: 403,
  notFound: 404,
  validation: 400,
  stale: 409,
  inUse: 409,
  badRequest: 400,
  loginFailed: 401,
  tooLarge: 400,
  userBlocked: 401,
  tooManyAttempts: 429,
  workflow: 409,
  /** well-formed, but the server will not do it: a document too long or too heavy to print */
  unprocessable: 422,
  /** the server is at its bound for this work now: try again shortly */
  busy: 503,
};

/** A field error: a caption key and its arguments, translated when the answer is written. */
export interface FieldError {
  key: string;
  args?: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  constructor(
    public readonly kind: ErrorKind,
    /** caption key of the message; default `errors.<kind>` */
    public readonly messageKey: string = `errors.${kind}`,
    public readonly args: Record<string, unknown> = {},
    public readonly fieldErrors?: Record<string, FieldError>,
    public readonly descriptionKey?: string,
    /** more of the answer, as it is (an import's `error_count` and `error_rows`) */
    public readonly details?: Record<string, unknown>,
  ) {
    super(messageKey);
    this.status = STATUS[kind];
    this.code = ERROR_CODES[kind];
  }
}

/** An import's errors listed in its answer: the first this many, by row number. */
export const IMPORT_ERRORS_SHOWN = 100;

const rowOf = (key: string) => Number(/^rows\.(\d+)\./.exec(key)?.[1] ?? 0);

/**
 * An import refused: every row was checked; the answer's `errors` holds the first
 * IMPORT_ERRORS_SHOWN of them by row number (keyed `rows.<n>.<field>`, a row's in the order they
 * were found), `error_count` all of them and `error_rows` the rows that have one.
 */
export function importRowsError(errors: Record<string, FieldError>): ApiError {
  const keys = Object.keys(errors).map((k, i) => ({ k, i, row: rowOf(k) }));
  keys.sort((a, b) => a.row - b.row || a.i - b.i);
  const shown = Object.fromEntries(keys.slice(0, IMPORT_ERRORS_SHOWN).map(({ k }) => [k, errors[k]]));
  const rows = new Set(keys.map((x) => x.row)).size;
  return new ApiError('validation', 'errors.import_rows', {}, shown, undefined, { error_count: keys.length, error_rows: rows });
}

export const validationError = (errors: Record<string, FieldError>) =>
  new ApiError('validation', 'errors.validation', {}, errors, 'errors.validation_description');
export const notFound = () => new ApiError('notFound');
export const forbidden = () => new ApiError('forbidden');
export const badRequest = (key: string, args: Record<string, unknown> = {}) => new ApiError('badRequest', key, args);

/**
 * A bad query parameter or list filter: a 400 whose message names it and whose `errors` holds it
 * under its own name (`range`, `page`, `from_paid_on`…), like a field of a form.
 */
export const badParam = (name: string, key = 'errors.bad_param', args: Record<string, unknown> = {}) =>
  new ApiError('badRequest', key, { name, ...args }, { [name]: { key, args: { name, ...args } } });
