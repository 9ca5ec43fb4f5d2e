import type { FieldMeta } from '../meta/types';
import { isPlainInteger } from '../../../shared/numbers';

/** A list column's alignment: figures (money, decimals, counts) to the right, years and codes as text. */
export function alignOf(f: FieldMeta): 'right' | undefined {
  if (f.type === 'money' || f.type === 'decimal') return 'right';
  if (f.type === 'integer' && !isPlainInteger(f.name)) return 'right';
  return undefined;
}
