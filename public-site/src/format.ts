/**
 * Numbers from the one formatter of all faces (shared/numbers.ts, docs/numbers.md): no-break
 * space thousands and a decimal comma in the three languages, exact on the API's decimal strings.
 * Dates by hand (DD.MM.YYYY): `Intl` would read `uk` as Ukrainian.
 */
import { NBSP, formatCoordinate, formatInteger, formatNumber } from '../../shared/numbers';

/** A whole number ("5 333 000"); nothing counts as 0. */
export function fmtInt(n: number | string | null | undefined): string {
  const s = formatInteger(n ?? 0);
  return /\d/.test(s) ? s : '';
}

/** A decimal with `digits` decimals, exact on decimal strings ("90 071 992 547 409,99"). */
export function fmtDecimal(n: number | string | null | undefined, digits = 2): string {
  const s = formatNumber(n, digits);
  return /\d/.test(s) ? s : '';
}

/** A share (0…1) as a percentage with 2 decimals; a tiny non-zero share shows as "< 0,01 %". */
export function fmtPercent(share: number): string {
  const p = share * 100;
  if (p > 0 && p < 0.01) return `<${NBSP}0,01${NBSP}%`;
  return `${fmtDecimal(p, 2)}${NBSP}%`;
}

/** A short count for a map label: 950, 1,2k, 35k, 1,4M. */
export function fmtShort(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace('.', ',').replace(',0', '')}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace('.', ',').replace(',0', '')}M`;
}

/** YYYY-MM-DD → DD.MM.YYYY */
export function fmtDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : iso;
}

/** A latitude or longitude: six decimals with a point, as maps write them. */
export function fmtCoord(n: number): string {
  return formatCoordinate(n);
}
