import { useState } from 'react';
import { TextInput, type Validator } from 'react-admin';
import type { FieldMeta } from '../meta/types';
import { formatDecimal, formatMoney, isDecimalString, parseDecimalInput } from '../../../shared/numbers';

/**
 * A money or decimal input that shows the figure as every face writes it ("1 503 500,50") and
 * keeps the form's value the API's decimal string ("1503500.50"), so nothing goes through a float.
 * What the user types is shown as typed until they leave the input; a figure typed or pasted with
 * spaces and a comma is read back to the decimal string. A value the check refuses is shown as it
 * is, never rounded into a valid-looking one.
 */
export function DecimalInput({ field, label, validate }: { field: FieldMeta; label?: string; validate?: Validator[] }) {
  // the text being typed; null when the user is not typing in the input
  const [draft, setDraft] = useState<string | null>(null);
  const scale = field.type === 'money' ? 2 : (field.scale ?? 4);
  const show = (v: unknown): string => {
    if (draft !== null) return draft;
    if (v === null || v === undefined) return '';
    const s = String(v);
    if (!isDecimalString(s, scale)) return s;
    return field.type === 'money' ? formatMoney(s) : formatDecimal(s);
  };
  const read = (s: string): string | null => {
    setDraft(s);
    return s === '' ? null : parseDecimalInput(s);
  };
  return (
    <TextInput
      source={field.name}
      label={label ?? field.label}
      validate={validate}
      format={show}
      parse={read}
      onBlur={() => setDraft(null)}
      slotProps={{ htmlInput: { inputMode: 'decimal', 'data-figure': field.type } }}
    />
  );
}
