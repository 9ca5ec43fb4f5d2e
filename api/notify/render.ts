import type { Lang } from '../meta/types.ts';

/** `{name}` placeholders: a name of letters, digits and underscores between braces. */
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The names a template's text uses, in order of first use (a malformed `{…}` is given as written). */
export function placeholders(text: string | null | undefined): string[] {
  const out: string[] = [];
  for (const m of String(text ?? '').matchAll(PLACEHOLDER)) if (!out.includes(m[1])) out.push(m[1]);
  return out;
}

/** A type's declared variables (`"id, year, comment"`). */
export function variableNames(declared: string | null | undefined): Set<string> {
  return new Set(
    String(declared ?? '')
      .split(/[\s,]+/)
      .filter(Boolean),
  );
}

/** The first placeholder of the texts that is not one of the variables, or null. */
export function unknownPlaceholder(texts: (string | null | undefined)[], variables: Set<string>): string | null {
  for (const t of texts) for (const name of placeholders(t)) if (!variables.has(name)) return name;
  return null;
}

/** Fills `{name}` with the value (a missing value is left empty). */
export function render(text: string | null | undefined, vars: Record<string, unknown>): string {
  return String(text ?? '').replace(PLACEHOLDER, (whole, name: string) =>
    /^[a-z_][a-z0-9_]*$/i.test(name) ? (vars[name] == null ? '' : String(vars[name])) : whole,
  );
}

export type Text3 = Partial<Record<Lang, string>>;

/** A text3's text in a language, falling back to Uzbek Latin (the spec's default and fallback). */
export function inLang(t: Text3 | null | undefined, lang: Lang): string {
  return t?.[lang] || t?.uz || '';
}
