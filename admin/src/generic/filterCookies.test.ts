import { describe, expect, it } from 'vitest';
import { FILTER_COOKIE_MAX_AGE, FILTER_COOKIES, filterCookieName, readFilterCookie, writeFilterCookie, type CookieJar } from './filterCookies';

/** A document.cookie stand-in that honours Max-Age against a clock the test moves. */
class Jar implements CookieJar {
  now = 0;
  private store = new Map<string, { value: string; expires: number }>();
  get cookie(): string {
    return [...this.store].filter(([, c]) => c.expires > this.now).map(([k, c]) => `${k}=${c.value}`).join('; ');
  }
  set cookie(header: string) {
    const [pair, ...attrs] = header.split(';').map((s) => s.trim());
    const i = pair.indexOf('=');
    const name = pair.slice(0, i);
    const maxAge = attrs.find((a) => /^max-age=/i.test(a));
    const seconds = maxAge ? Number(maxAge.split('=')[1]) : Infinity;
    if (seconds <= 0) { this.store.delete(name); return; }
    this.store.set(name, { value: pair.slice(i + 1), expires: this.now + seconds * 1000 });
  }
  raw(): string[] { return [...this.store.keys()]; }
}

describe('filter cookies', () => {
  it('maps the six lists of the spec to the old cookie names', () => {
    expect(FILTER_COOKIES).toEqual({
      subjects: 'filter_subjects',
      penya: 'filter_penya',
      'stack-payments': 'filter_stack_payment',
      offences: 'filter_offence_list',
      'people-facts': 'filter_people_fact',
      'green-parks': 'filter_green_park',
    });
    expect(filterCookieName('areas')).toBeUndefined();
    expect(filterCookieName('toString')).toBeUndefined();
  });

  it('keeps a filter for one hour', () => {
    const jar = new Jar();
    const filter = { q: 'Oʻzbekiston “Temir”; 50%', region_id: 3, from_date: '2024-01-01' };
    expect(writeFilterCookie('offences', filter, jar)).toBe(true);
    expect(jar.raw()).toEqual(['filter_offence_list']);
    expect(readFilterCookie('offences', jar)).toEqual(filter);
    jar.now += (FILTER_COOKIE_MAX_AGE - 1) * 1000;
    expect(readFilterCookie('offences', jar)).toEqual(filter);
    jar.now += 2000;
    expect(readFilterCookie('offences', jar)).toBeUndefined();
  });

  it('drops empty values and removes the cookie for an empty filter', () => {
    const jar = new Jar();
    writeFilterCookie('penya', { q: '', region_id: null, year: 2024 }, jar);
    expect(readFilterCookie('penya', jar)).toEqual({ year: 2024 });
    writeFilterCookie('penya', { q: '' }, jar);
    expect(readFilterCookie('penya', jar)).toBeUndefined();
    expect(jar.raw()).toEqual([]);
  });

  it('keeps each list apart and ignores lists outside the table', () => {
    const jar = new Jar();
    writeFilterCookie('subjects', { q: 'a' }, jar);
    writeFilterCookie('green-parks', { q: 'b' }, jar);
    expect(writeFilterCookie('areas', { q: 'c' }, jar)).toBe(false);
    expect(readFilterCookie('subjects', jar)).toEqual({ q: 'a' });
    expect(readFilterCookie('green-parks', jar)).toEqual({ q: 'b' });
    expect(readFilterCookie('areas', jar)).toBeUndefined();
    expect(jar.raw().sort()).toEqual(['filter_green_park', 'filter_subjects']);
  });

  it('survives a damaged cookie', () => {
    const jar = new Jar();
    jar.cookie = 'filter_people_fact=%7Bnot-json; Max-Age=3600';
    expect(readFilterCookie('people-facts', jar)).toBeUndefined();
    jar.cookie = 'filter_people_fact=%5B1%2C2%5D; Max-Age=3600';
    expect(readFilterCookie('people-facts', jar)).toBeUndefined();
  });
});
