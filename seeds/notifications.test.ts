import { describe, expect, it } from 'vitest';
import { cyrillic, TYPES } from './notifications.ts';
import { unknownPlaceholder, variableNames } from '../api/notify/render.ts';

describe('the seeded notification templates', () => {
  it("use only their type's variables, in every language", () => {
    for (const t of TYPES) {
      const vars = variableNames(t.variables);
      for (const [method, tpl] of Object.entries(t.templates)) {
        const texts = [tpl.subject, tpl.body].flatMap((x) => (x ? [x.uz, cyrillic(x.uz), x.ru] : []));
        expect(unknownPlaceholder(texts, vars), `${t.code} ${method}`).toBeNull();
      }
    }
  });
  it('keep placeholders when written in Cyrillic', () => {
    expect(cyrillic('{year} yil uchun {id}-hisobot')).toBe('{year} йил учун {id}-ҳисобот');
  });
});
