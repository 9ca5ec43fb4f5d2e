import { useState } from 'react';
import { TextInput, type Validator } from 'react-admin';
import type { FieldMeta } from '../meta/types';
import { formatDecimal, formatMoney, isDecimalString, parseDecimalInput } from '../../../shared/numbers';

/**
 * A money or decimal input: shows the figure as every face writes it ("1 503 500,50") while the
 * user is not typing in it, and the plain digits while they are; the form's value stays the API's
 * decimal string ("1503500.50"), so nothing goes through a float. A figure typed or pasted with
 * spaces and a comma is read back to the decimal string. A value the check refuses is shown as
 * typed, never rounded into a valid-looking one.
 */
export function DecimalInput({ field, label, validate }: { field: FieldMeta; label?: string; validate?: Validator[] }) {
  const [editing, setEditing] = useState(false);
  const scale = field.type === 'money' ? 2 : field.scale ?? 4;
  const show = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    const s = String(v);
    if (editing || !isDecimalString(s, scale)) return s;
    return field.type === 'money' ? formatMoney(s) : formatDecimal(s);
  };
  return (
    <TextInput
      source={field.name}
      label={label ?? field.label}
      validate={validate}
      format={show}
      parse={(s: string) => (s === '' ? null : parseDecimalInput(s))}
      onFocus={() => setEditing(true)}
      onBlur={() => setEditing(false)}
      slotProps={{ htmlInput: { inputMode: 'decimal', 'data-figure': field.type } }}
    />
  );
}
