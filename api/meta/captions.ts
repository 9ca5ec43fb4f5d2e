import type { Lang, MetaModel } from './types.ts';

/** `{a: {b: "x"}}` → `{"a.b": "x"}`; dotted keys may also be written flat. */
export function flattenCaptions(tree: Record<string, unknown>, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') Object.assign(out, flattenCaptions(v as Record<string, unknown>, key));
    else if (typeof v === 'string') out[key] = v;
  }
  return out;
}

/**
 * A caption in the caller's language, with uz as the fallback. `{0}`, `{1}`… and `{name}`
 * placeholders are filled from args.
 */
export function translate(
  model: Pick<MetaModel, 'captions'>,
  lang: Lang,
  key: string,
  args: Record<string, unknown> | unknown[] = [],
): string {
  const text = model.captions[lang]?.[key] ?? model.captions.uz?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => {
    const v = (args as Record<string, unknown>)[name];
    return v === undefined ? m : String(v);
  });
}
