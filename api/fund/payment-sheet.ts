import ExcelJS from 'exceljs';
import type { FieldError } from '../http/errors.ts';
import { ApiError } from '../http/errors.ts';
import { isIsoDate, todayTashkent } from '../meta/today.ts';
import { FORMATS } from '../meta/formats.ts';
import { isBadText } from '../http/input-guard.ts';

/**
 * A bank statement as an .xlsx: the first sheet, a header row, then one payment per row in the
 * columns below (docs/payments-import.md). Every bad cell is reported by row number; a sheet with
 * any error imports nothing.
 */
export const PAYMENT_COLUMNS = ['paid_on', 'number', 'amount', 'payer', 'payer_inn', 'payer_account', 'purpose', 'income_code', 'payment_type'] as const;

export interface SheetPayment {
  row: number;
  paid_on: string;
  number: string;
  amount: string;
  payer: string | null;
  payer_inn: string | null;
  payer_account: string | null;
  purpose: string | null;
  income_code: string | null;
  payment_type: 'card' | 'cash';
}

const MAX_ROWS = 20000;

function text(v: ExcelJS.CellValue): string {
  if (v == null) return '';
  if (typeof v === 'object' && 'richText' in v) return v.richText.map((t) => t.text).join('').trim();
  if (typeof v === 'object' && 'text' in v) return String(v.text).trim();
  if (typeof v === 'object' && 'result' in v) return text(v.result as ExcelJS.CellValue);
  return String(v).trim();
}

/** A cell as 'YYYY-MM-DD': an Excel date, or text written dd.mm.yyyy or yyyy-mm-dd. */
export function sheetDate(v: ExcelJS.CellValue): string | null {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return null;
    const s = v.toISOString().slice(0, 10);
    return isIsoDate(s) ? s : null;
  }
  const s = text(v);
  const dmy = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(s);
  const iso = dmy ? `${dmy[3]}-${dmy[2].padStart(2, '0')}-${dmy[1].padStart(2, '0')}` : s;
  return isIsoDate(iso) ? iso : null;
}

/** A cell as an exact amount with at most 2 decimals: "1 234 567,50", "1234567.50" or a number. */
export function sheetAmount(v: ExcelJS.CellValue): string | null {
  let s: string;
  if (typeof v === 'number') {
    // a spreadsheet number is a float: accept it only when it is a whole number of tiyin
    const tiyin = Math.round(v * 100);
    if (!Number.isSafeInteger(tiyin) || Math.abs(v * 100 - tiyin) > 1e-6) return null;
    s = `${Math.trunc(tiyin / 100)}.${String(Math.abs(tiyin % 100)).padStart(2, '0')}`;
  } else s = text(v).replace(/[\s\u00a0]/g, '').replace(',', '.');
  const m = /^(\d{1,16})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const value = `${m[1]}.${(m[2] ?? '').padEnd(2, '0')}`;
  return /^0+\.00$/.test(value) ? null : value;
}

/** The first n characters, without cutting a surrogate pair in two. */
function cut(s: string, n: number): string {
  if (s.length <= n) return s;
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

export async function readPaymentSheet(file: Buffer): Promise<{ payments: SheetPayment[]; errors: Record<string, FieldError> }> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw new ApiError('badRequest', 'errors.import_file');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet || sheet.rowCount < 2) throw new ApiError('badRequest', 'errors.import_file');
  if (sheet.rowCount > MAX_ROWS + 1) throw new ApiError('tooLarge', 'errors.import_too_many', { max: MAX_ROWS });
  const today = todayTashkent();
  const payments: SheetPayment[] = [];
  const errors: Record<string, FieldError> = {};
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cell = (i: number) => row.getCell(i + 1).value;
    if (PAYMENT_COLUMNS.every((_, i) => text(cell(i)) === '')) continue;
    // the first error of a cell is the one shown
    const err = (field: string, key: string) => { errors[`rows.${r}.${field}`] ??= { key }; };
    // a NUL (written `_x0000_` in the file) or a broken surrogate cannot be stored: the row's error, by column
    PAYMENT_COLUMNS.forEach((name, i) => { if (isBadText(text(cell(i)))) err(name, 'validation.bad_characters'); });
    const paidOn = sheetDate(cell(0));
    if (!paidOn) err('paid_on', 'validation.wrong_format');
    else if (paidOn > today) err('paid_on', 'validation.future_date');
    const number = text(cell(1));
    if (!number) err('number', 'validation.required');
    else if (number.length > 50) err('number', 'validation.wrong_format');
    const amount = sheetAmount(cell(2));
    if (!amount) err('amount', text(cell(2)) ? 'validation.money' : 'validation.required');
    const inn = text(cell(4)).replace(/\s/g, '');
    if (inn && !new RegExp(FORMATS.inn_or_pinfl.pattern).test(inn)) err('payer_inn', FORMATS.inn_or_pinfl.message);
    const account = text(cell(5)).replace(/\s/g, '');
    if (account && !new RegExp(FORMATS.account.pattern).test(account)) err('payer_account', FORMATS.account.message);
    const typeText = text(cell(8)).toLowerCase();
    const type = !typeText || ['card', 'karta', 'карта', 'plastik', 'transfer', 'oʻtkazma'].includes(typeText) ? 'card' : ['cash', 'naqd', 'наличные', 'нақд'].includes(typeText) ? 'cash' : null;
    if (!type) err('payment_type', 'validation.wrong_value');
    payments.push({
      row: r, paid_on: paidOn ?? '', number, amount: amount ?? '', payer: cut(text(cell(3)), 500) || null, payer_inn: inn || null,
      payer_account: account || null, purpose: cut(text(cell(6)), 2000) || null, income_code: text(cell(7)) || null, payment_type: type ?? 'card',
    });
  }
  if (!payments.length && !Object.keys(errors).length) throw new ApiError('badRequest', 'errors.import_file');
  return { payments, errors };
}
