import type { FieldError } from '../kernel/errors.ts';
import { ApiError } from '../kernel/errors.ts';
import { todayTashkent } from '../meta/today.ts';
import { FORMATS } from '../meta/formats.ts';
import { isBadText } from '../kernel/input-text.ts';
import { cellDate, readXlsxRows, type XlsxCell } from '../engine/xlsx-read.ts';
import { importMaxRows } from '../engine/import.ts';

/**
 * A bank statement as an .xlsx: the first sheet, a header row, then one payment per row in the
 * columns below (docs/payments-import.md). Every bad cell is reported by row number; a sheet with
 * any error imports nothing.
 */
export const PAYMENT_COLUMNS = [
  'paid_on',
  'number',
  'amount',
  'payer',
  'payer_inn',
  'payer_account',
  'purpose',
  'income_code',
  'payment_type',
] as const;

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

function text(v: XlsxCell): string {
  if (v == null) return '';
  return String(v).trim();
}

/** A cell as an exact amount with at most 2 decimals: "1 234 567,50", "1234567.50" or a number. */
export function sheetAmount(v: XlsxCell): string | null {
  let s: string;
  if (typeof v === 'number') {
    // a spreadsheet number is a float: accept it only when it is a whole number of tiyin
    const tiyin = Math.round(v * 100);
    if (!Number.isSafeInteger(tiyin) || Math.abs(v * 100 - tiyin) > 1e-6) return null;
    s = `${Math.trunc(tiyin / 100)}.${String(Math.abs(tiyin % 100)).padStart(2, '0')}`;
  } else
    s = text(v)
      .replace(/[\s\u00a0]/g, '')
      .replace(',', '.');
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

export interface SheetOptions {
  signal?: AbortSignal;
  /** compressed bytes of the file read so far, and its size */
  onProgress?: (done: number, total: number) => void;
}

/** A statement's rows read so far, and the errors found in them. */
export interface SheetChunk {
  payments: SheetPayment[];
  errors: Record<string, FieldError>;
}

/**
 * Reads a statement's rows as the file streams (docs/payments-import.md), in chunks as they are
 * inflated, and checks every cell; the reading runs ahead of the consumer, so that a database can
 * write the first rows while the rest are read. Errors are keyed `rows.<row number>.<field>`, the
 * first of a cell the one kept; rows with errors are given too (their bad fields empty) so that
 * the engine's checks can name theirs as well. A file with no row is a 400 `errors.import_file`.
 */
export async function* readPaymentSheet(file: Uint8Array | string, opts: SheetOptions = {}): AsyncGenerator<SheetChunk> {
  const today = todayTashkent();
  const innRe = new RegExp(FORMATS.inn_or_pinfl.pattern);
  const accountRe = new RegExp(FORMATS.account.pattern);
  let chunk: SheetChunk = { payments: [], errors: {} };
  let any = false;
  const ready: SheetChunk[] = [];
  let wake: (() => void) | undefined;
  // the reading waits while AHEAD chunks are ready and not taken (a slow database holds no more of the file)
  let resume: (() => void) | undefined;
  const taken = () => {
    const r = resume;
    resume = undefined;
    r?.();
  };
  const flush = () => {
    if (chunk.payments.length || Object.keys(chunk.errors).length) {
      ready.push(chunk);
      any = true;
      chunk = { payments: [], errors: {} };
    }
    wake?.();
  };
  // the reading stops when the consumer does (an error, an abort, or it stops asking)
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  let ended: { err?: unknown } | undefined;
  const reading = readXlsxRows(
    file,
    (cells, r) => {
      // row 1 is the header
      if (r === 1) return;
      const cell = (i: number) => cells[i] ?? null;
      if (PAYMENT_COLUMNS.every((_, i) => text(cell(i)) === '')) return;
      const errors = chunk.errors;
      // the first error of a cell is the one shown
      const err = (field: string, key: string) => {
        errors[`rows.${r}.${field}`] ??= { key };
      };
      // a NUL (written `_x0000_` in the file) or a broken surrogate cannot be stored: the row's error, by column
      PAYMENT_COLUMNS.forEach((name, i) => {
        if (isBadText(text(cell(i)))) err(name, 'validation.bad_characters');
      });
      const paidOn = cellDate(cell(0));
      if (!paidOn) err('paid_on', 'validation.wrong_format');
      else if (paidOn > today) err('paid_on', 'validation.future_date');
      const number = text(cell(1));
      if (!number) err('number', 'validation.required');
      else if (number.length > 50) err('number', 'validation.wrong_format');
      const amount = sheetAmount(cell(2));
      if (!amount) err('amount', text(cell(2)) ? 'validation.money' : 'validation.required');
      const inn = text(cell(4)).replace(/\s/g, '');
      if (inn && !innRe.test(inn)) err('payer_inn', FORMATS.inn_or_pinfl.message);
      const account = text(cell(5)).replace(/\s/g, '');
      if (account && !accountRe.test(account)) err('payer_account', FORMATS.account.message);
      const typeText = text(cell(8)).toLowerCase();
      const type = !typeText || CARD.has(typeText) ? 'card' : CASH.has(typeText) ? 'cash' : null;
      if (!type) err('payment_type', 'validation.wrong_value');
      chunk.payments.push({
        row: r,
        paid_on: paidOn ?? '',
        number,
        amount: amount ?? '',
        payer: cut(text(cell(3)), 500) || null,
        payer_inn: inn || null,
        payer_account: account || null,
        purpose: cut(text(cell(6)), 2000) || null,
        income_code: text(cell(7)) || null,
        payment_type: type ?? 'card',
      });
    },
    {
      maxRows: importMaxRows() + 1,
      signal,
      ready: () =>
        ready.length >= AHEAD
          ? new Promise<void>((resolve) => {
              resume = resolve;
            })
          : undefined,
      // each inflated piece of the sheet's XML is a chunk
      onProgress: (done, total) => {
        flush();
        opts.onProgress?.(done, total);
      },
    },
  )
    .then(
      () => {
        flush();
        ended = {};
      },
      (err: unknown) => {
        ended = { err };
      },
    )
    .finally(() => wake?.());
  try {
    for (;;) {
      const next = ready.shift();
      if (next) {
        if (ready.length < AHEAD) taken();
        yield next;
        continue;
      }
      if (ended) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    if (ended?.err) throw ended.err;
    if (!any) throw new ApiError('badRequest', 'errors.import_file');
  } finally {
    stop.abort();
    taken();
    await reading;
  }
}

/** Chunks (each an inflated piece of the sheet, ~256 KB of XML) read ahead of the consumer at most. */
const AHEAD = 8;

const CARD = new Set(['card', 'karta', 'карта', 'plastik', 'transfer', 'oʻtkazma']);
const CASH = new Set(['cash', 'naqd', 'наличные', 'нақд']);
