/** The caption keys of a missing required value (ours and react-admin's). */
const REQUIRED = new Set(['validation.required', 'ra.validation.required']);

interface ErrorNode { message?: unknown; type?: unknown; [k: string]: unknown }

/**
 * Whether a form's errors (react-hook-form's tree, nested for children rows and translated
 * objects) include a missing required value: the spec's "Enter the data fully".
 */
export function hasMissingRequired(errors: unknown, depth = 0): boolean {
  if (!errors || typeof errors !== 'object' || depth > 8) return false;
  const node = errors as ErrorNode;
  const msg = node.message;
  const key = typeof msg === 'string' ? msg : msg && typeof msg === 'object' ? (msg as { message?: unknown }).message : undefined;
  if (typeof key === 'string' && REQUIRED.has(key)) return true;
  if (node.type === 'required') return true;
  return Object.entries(node).some(([k, v]) => k !== 'ref' && k !== 'message' && hasMissingRequired(v, depth + 1));
}
