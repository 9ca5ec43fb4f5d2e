import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  FILTER_COOKIE_MAX_AGE,
  filterCookieName,
  readFilterCookie,
  writeFilterCookie,
  type CookieJar,
  type KeptList,
} from './filterCookies';

/** An entity as /api/meta gives it, as far as the cookies go. */
const entity = (cookie?: string): KeptList => ({ list: cookie === undefined ? {} : { cookie } });
const subjects = entity('filter_subjects');
const penya = entity('filter_penya');
const offences = entity('filter_offence_list');
const peopleFacts = entity('filter_people_fact');
const greenParks = entity('filter_green_park');
const areas = entity();

/** Every entity file of the metadata: its name and its list's cookie. */
function metadataCookies(): Record<string, string> {
  const root = fileURLToPath(new URL('../../../metadata/entities/', import.meta.url));
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.isDirectory()) walk(join(dir, d.name));
      else if (d.name.endsWith('.json')) {
        const e = JSON.parse(readFileSync(join(dir, d.name), 'utf8')) as { name: string; list: { cookie?: string } };
        if (e.list.cookie) out[e.name] = e.list.cookie;
      }
    }
  };
  walk(root);
  return out;
}

/** A document.cookie stand-in that honours Max-Age against a clock the test moves. */
class Jar implements CookieJar {
  now = 0;
  private store = new Map<string, { value: string; expires: number }>();
  get cookie(): string {
    return [...this.store]
      .filter(([, c]) => c.expires > this.now)
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
  }
  set cookie(header: string) {
    const [pair, ...attrs] = header.split(';').map((s) => s.trim());
    const i = pair.indexOf('=');
    const name = pair.slice(0, i);
    const maxAge = attrs.find((a) => /^max-age=/i.test(a));
    const seconds = maxAge ? Number(maxAge.split('=')[1]) : Infinity;
    if (seconds <= 0) {
      this.store.delete(name);
      return;
    }
    this.store.set(name, { value: pair.slice(i + 1), expires: this.now + seconds * 1000 });
  }
  raw(): string[] {
    return [...this.store.keys()];
  }
}

describe('filter cookies', () => {
  it('keeps the lists of the spec that exist under the old names, as the metadata says', () => {
    // spec §3: filter_subjects, filter_penya, filter_stack_payment, filter_offence_list,
    // filter_people_fact, filter_green_park
    expect(metadataCookies()).toEqual({
      subject: 'filter_subjects',
      penya: 'filter_penya',
      'stack-payments': 'filter_stack_payment',
      offences: 'filter_offence_list',
      'people-facts': 'filter_people_fact',
      'green-parks': 'filter_green_park',
    });
  });

  it('takes the name from the entity, and none that is not a filter cookie', () => {
    expect(filterCookieName(subjects)).toBe('filter_subjects');
    expect(filterCookieName(areas)).toBeUndefined();
    expect(filterCookieName(undefined)).toBeUndefined();
    expect(filterCookieName(entity('session'))).toBeUndefined();
    expect(filterCookieName(entity('filter_x; Path=/; Domain=evil'))).toBeUndefined();
  });

  it('keeps a filter for one hour', () => {
    const jar = new Jar();
    const filter = { q: 'Oʻzbekiston “Temir”; 50%', region_id: 3, from_date: '2024-01-01' };
    expect(writeFilterCookie(offences, filter, jar)).toBe(true);
    expect(jar.raw()).toEqual(['filter_offence_list']);
    expect(readFilterCookie(offences, jar)).toEqual(filter);
    jar.now += (FILTER_COOKIE_MAX_AGE - 1) * 1000;
    expect(readFilterCookie(offences, jar)).toEqual(filter);
    jar.now += 2000;
    expect(readFilterCookie(offences, jar)).toBeUndefined();
  });

  it('drops empty values and removes the cookie for an empty filter', () => {
    const jar = new Jar();
    writeFilterCookie(penya, { q: '', region_id: null, year: 2024 }, jar);
    expect(readFilterCookie(penya, jar)).toEqual({ year: 2024 });
    writeFilterCookie(penya, { q: '' }, jar);
    expect(readFilterCookie(penya, jar)).toBeUndefined();
    expect(jar.raw()).toEqual([]);
  });

  it('keeps each list apart and ignores lists without a cookie', () => {
    const jar = new Jar();
    writeFilterCookie(subjects, { q: 'a' }, jar);
    writeFilterCookie(greenParks, { q: 'b' }, jar);
    expect(writeFilterCookie(areas, { q: 'c' }, jar)).toBe(false);
    expect(readFilterCookie(subjects, jar)).toEqual({ q: 'a' });
    expect(readFilterCookie(greenParks, jar)).toEqual({ q: 'b' });
    expect(readFilterCookie(areas, jar)).toBeUndefined();
    expect(jar.raw().sort()).toEqual(['filter_green_park', 'filter_subjects']);
  });

  it('survives a damaged cookie', () => {
    const jar = new Jar();
    jar.cookie = 'filter_people_fact=%7Bnot-json; Max-Age=3600';
    expect(readFilterCookie(peopleFacts, jar)).toBeUndefined();
    jar.cookie = 'filter_people_fact=%5B1%2C2%5D; Max-Age=3600';
    expect(readFilterCookie(peopleFacts, jar)).toBeUndefined();
  });
});
