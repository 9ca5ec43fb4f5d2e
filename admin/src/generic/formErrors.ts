/** The caption keys of a missing required value (ours and react-admin's). */
const REQUIRED = new Set(['validation.required', 'ra.validation.required']);

interface ErrorNode {
  message?: unknown;
  type?: unknown;
  [k: string]: unknown;
}

/** react-admin keeps a validator's message as a JSON string: `@@react-admin@@"key"` or `@@react-admin@@{"message":…,"args":…}`. */
const RA_PREFIX = '@@react-admin@@';
function messageKey(msg: unknown): unknown {
  let m = msg;
  if (typeof m === 'string' && m.startsWith(RA_PREFIX)) {
    try {
      m = JSON.parse(m.slice(RA_PREFIX.length));
    } catch {
      return m;
    }
  }
  return m && typeof m === 'object' ? (m as { message?: unknown }).message : m;
}

/**
 * Whether a form's errors (react-hook-form's tree, nested for children rows and translated
 * objects) include a missing required value: the spec's "Enter the data fully".
 */
export function hasMissingRequired(errors: unknown, depth = 0): boolean {
  if (!errors || typeof errors !== 'object' || depth > 8) return false;
  const node = errors as ErrorNode;
  const key = messageKey(node.message);
  if (typeof key === 'string' && REQUIRED.has(key)) return true;
  if (node.type === 'required') return true;
  return Object.entries(node).some(([k, v]) => k !== 'ref' && k !== 'message' && hasMissingRequired(v, depth + 1));
}
