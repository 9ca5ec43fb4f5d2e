/**
 * Uzbek Latin → Uzbek Cyrillic, the fixed correspondence of the two official alphabets, so that
 * missing `uk` captions can be produced and then reviewed by a person. Placeholders ({0}, {name},
 * %{count}) and text in <angle brackets> are kept as they are.
 */
const APOS = "ʻ'’‘`";
const TUTUQ = 'ʼ';

const PAIRS: [string, string][] = [
  ['sh', 'ш'], ['ch', 'ч'], ['yo', 'ё'], ['yu', 'ю'], ['ya', 'я'], ['ye', 'е'],
];
const SINGLE: Record<string, string> = {
  a: 'а', b: 'б', d: 'д', e: 'е', f: 'ф', g: 'г', h: 'ҳ', i: 'и', j: 'ж', k: 'к', l: 'л', m: 'м', n: 'н',
  o: 'о', p: 'п', q: 'қ', r: 'р', s: 'с', t: 'т', u: 'у', v: 'в', x: 'х', y: 'й', z: 'з', c: 'с', w: 'в',
};

function isUpper(s: string): boolean { return s !== s.toLowerCase() && s === s.toUpperCase(); }
function isLetter(ch: string | undefined): boolean { return !!ch && /\p{L}/u.test(ch); }

function caseLike(src: string, out: string, nextUpper: boolean): string {
  if (!isUpper(src[0])) return out;
  // "Sh" → "Ш"; "SH" inside an upper-case word → "Ш" too
  return out.length === 1 || nextUpper ? out.toUpperCase() : out[0].toUpperCase() + out.slice(1);
}

function word(w: string): string {
  let out = '';
  let i = 0;
  while (i < w.length) {
    const ch = w[i];
    const lower = ch.toLowerCase();
    const next = w[i + 1] ?? '';
    const prev = w[i - 1];
    // oʻ and gʻ
    if ((lower === 'o' || lower === 'g') && next && APOS.includes(next)) {
      const c = lower === 'o' ? 'ў' : 'ғ';
      out += isUpper(ch) ? c.toUpperCase() : c;
      i += 2;
      continue;
    }
    if (ch === TUTUQ || (APOS.includes(ch) && isLetter(prev) && isLetter(next))) { out += 'ъ'; i += 1; continue; }
    // ts of loanwords before -iya, -ion, -ient, -ial is ц (Kompensatsiya → Компенсация), not т + с (ketsa → кетса)
    if ((ch + next).toLowerCase() === 'ts' && /^i(ya|on|ent|al)/i.test(w.slice(i + 2))) {
      out += isUpper(ch) ? 'Ц' : 'ц';
      i += 2;
      continue;
    }
    // "yoʻ" is y + oʻ (Yoʻq → Йўқ), not yo + ʻ
    const pair = PAIRS.find(([lat]) => (ch + next).toLowerCase() === lat && !(lat === 'yo' && w[i + 2] !== undefined && APOS.includes(w[i + 2])));
    if (pair) {
      let cyr = pair[1];
      // e at the start of a word is э; "ye" is е
      out += caseLike(ch + next, cyr, isUpper(w[i + 2] ?? '') && isUpper(next));
      i += 2;
      continue;
    }
    // e at the start of a word and after a, o, u is э (Ekologiya → Экология, aeroport → аэропорт; but dieta → диета)
    if (lower === 'e' && (!isLetter(prev) || 'aouAOU'.includes(prev))) { out += isUpper(ch) ? 'Э' : 'э'; i += 1; continue; }
    const cyr = SINGLE[lower];
    out += cyr ? (isUpper(ch) ? cyr.toUpperCase() : cyr) : ch;
    i += 1;
  }
  return out;
}

/**
 * Russian loanwords keep their soft sign in Uzbek Cyrillic, which the Latin alphabet does not
 * write (parol → пароль, filtr → фильтр): the stems the captions use, at the start of a word and
 * a final soft sign not before a vowel (paroli → пароли, as автомобили; but filtri → фильтри).
 */
const SOFT_SIGN_STEMS: [RegExp, string][] = [
  ['парол', 'пароль'], ['филтр', 'фильтр'], ['модул', 'модуль'], ['калкулятор', 'калькулятор'], ['профил', 'профиль'],
].map(([plain, soft]) => [new RegExp(`(?<![\\p{L}])(${plain})${soft.endsWith('ь') ? '(?![аеёиоуэюяўы])' : ''}`, 'giu'), soft]);

function softSigns(s: string): string {
  let out = s;
  for (const [re, soft] of SOFT_SIGN_STEMS) out = out.replace(re, (m: string) => (m[0] === m[0].toUpperCase() ? soft[0].toUpperCase() + soft.slice(1) : soft));
  return out;
}

export function latinToCyrillic(text: string): string {
  // keep placeholders and tags; transliterate the rest
  return text.split(/(%?\{[^}]*\}|<[^>]*>)/g).map((part, i) => (i % 2 ? part : softSigns(word(part)))).join('');
}
