/** The file ids of a `file`, `image` or `files` value (one id or an array of them). */
export const idsOf = (v: unknown): number[] =>
  (Array.isArray(v) ? v : v === null || v === undefined || v === '' ? [] : [v]).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
