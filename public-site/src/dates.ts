/**
 * The public site's date field (components/DateField.tsx, docs/decisions/0085): typed as
 * DD.MM.YYYY whatever the browser's locale, the dots put in as one types; the form keeps
 * `YYYY-MM-DD` once the date is whole and real, and what was typed until then.
 */

const GROUP = [2, 2, 4];

/**
 * What the field shows after an edit: digits in three groups (day, month, year) split by dots. A
 * full day or month moves on to the next group (a dot is added while typing forward); a dot, a
 * slash, a dash or a space typed after a digit closes its group ("2.5.2026").
 */
export function maskDate(next: string, prev = ''): string {
  const raw = next.replace(/[/\-, ]/g, '.').replace(/[^\d.]/g, '');
  const groups = ['', '', ''];
  let g = 0;
  for (const ch of raw) {
    if (ch === '.') {
      if (groups[g] !== '' && g < 2) g++;
      continue;
    }
    if (g < 2 && groups[g].length === GROUP[g]) g++;
    if (groups[g].length < GROUP[g]) groups[g] += ch;
  }
  let s = groups.slice(0, g + 1).join('.');
  if (next.length > prev.length && g < 2 && groups[g].length === GROUP[g]) s += '.';
  return s;
}

const pad = (s: string) => s.padStart(2, '0');

/** "2.5.2026" → "02.05.2026" (when it leaves the field); anything else as it is. */
export function normaliseDmy(s: string): string {
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
  return m ? `${pad(m[1])}.${pad(m[2])}.${m[3]}` : s;
}

/** "02.12.2026" (or "2.12.2026") → "2026-12-02"; null when it is not a whole, real date. */
export function dmyToIso(s: string): string | null {
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s.trim());
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || mo < 1 || mo > 12 || d < 1) return null;
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null;
  return `${m[3]}-${pad(m[2])}-${pad(m[1])}`;
}

/** "2026-12-02" → "02.12.2026"; anything that is not such a date as it is (what was typed). */
export function isoToDmy(s: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : s;
}
