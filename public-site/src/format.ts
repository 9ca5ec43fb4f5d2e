/**
 * Numbers and dates by hand, the same in the three languages (space thousands, comma decimals,
 * DD.MM.YYYY): `Intl` would read `uk` as Ukrainian.
 */
const NBSP = '\u00a0';

export function fmtInt(n: number | string | null | undefined): string {
  const v = Number(n ?? 0);
  if (!Number.isFinite(v)) return '';
  const sign = v < 0 ? '-' : '';
  return sign + String(Math.round(Math.abs(v))).replace(/\B(?=(\d{3})+(?!\d))/g, NBSP);
}

export function fmtDecimal(n: number | string | null | undefined, digits = 2): string {
  const v = Number(n);
  if (n === null || n === undefined || n === '' || !Number.isFinite(v)) return '';
  const [int, frac] = Math.abs(v).toFixed(digits).split('.');
  return (v < 0 ? '-' : '') + int.replace(/\B(?=(\d{3})+(?!\d))/g, NBSP) + (frac ? `,${frac}` : '');
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

export function fmtCoord(n: number): string {
  return n.toFixed(5);
}
