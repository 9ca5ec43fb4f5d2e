import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { ADMIN_SETTINGS, withSiteConfig } from '../api/http/static.ts';
import { clearConfigCache } from '../api/auth/config.ts';

/** The public site's settings (hotline, e-mail, map tiles) reach its page from the settings screen or the environment. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
  delete process.env.ECOFOND_MAP_TILES;
});

const PAGE = '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body></body></html>';
const configOf = (html: string) => {
  const m = /window\.__ECOFOND_CONFIG__=Object\.assign\(window\.__ECOFOND_CONFIG__\|\|\{\},(.*?)\);<\/script>/.exec(html);
  return m ? JSON.parse(m[1]) : null;
};

describe('the public site settings', () => {
  it('are seeded empty, so the page is served as built', async () => {
    const keys = await api.db.knex('app_configs').whereLike('key', 'site.%').orderBy('key').pluck('key');
    expect(keys).toEqual(['site.email', 'site.hotline', 'site.map_tiles']);
    expect(await api.db.knex('app_configs').where({ key: 'esign.eimzo_api_key' }).first('value')).toEqual({ value: '' });
    clearConfigCache(api.db.knex);
    expect(await withSiteConfig(api.db.knex, PAGE)).toBe(PAGE);
  });

  it('put the settings screen’s values, else the environment’s, before the site’s script, safely', async () => {
    await api.db.knex('app_configs').where({ key: 'site.hotline' }).update({ value: '+998 71 207-00-00' });
    await api.db.knex('app_configs').where({ key: 'site.email' }).update({ value: 'x</script><script>alert(1)</script>@fond.uz' });
    process.env.ECOFOND_MAP_TILES = 'https://tiles.example.uz/{z}/{x}/{y}.png';
    clearConfigCache(api.db.knex);
    const html = await withSiteConfig(api.db.knex, PAGE);
    expect(html.indexOf('__ECOFOND_CONFIG__')).toBeLessThan(html.indexOf('/assets/index.js'));
    expect(html).not.toContain('</script><script>alert');
    expect(configOf(html)).toEqual({
      hotline: '+998 71 207-00-00',
      email: 'x</script><script>alert(1)</script>@fond.uz',
      mapTiles: 'https://tiles.example.uz/{z}/{x}/{y}.png',
    });
    // the back-office's page gets the tiles and this domain's E-IMZO key, not the contacts
    await api.db.knex('app_configs').where({ key: 'esign.eimzo_api_key' }).update({ value: 'ABC123' });
    clearConfigCache(api.db.knex);
    expect(configOf(await withSiteConfig(api.db.knex, PAGE, ADMIN_SETTINGS))).toEqual({
      mapTiles: 'https://tiles.example.uz/{z}/{x}/{y}.png',
      eimzoKey: 'ABC123',
    });
  });
});
