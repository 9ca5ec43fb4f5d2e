import { describe, expect, it } from 'vitest';
import { eimzoKeys, eimzoSigningKey, parseAlias, versionOk, type EimzoKey } from './eimzo';

const ALIAS =
  'cn=aliyev vali,name=vali,surname=aliyev,o=“sement” mchj,1.2.860.3.16.1.1=301234567,1.2.860.3.16.1.2=31234567890123,serialnumber=7a3b2c,validfrom=2024.01.15 10:00:00,validto=2026.01.15 23:59:59';

/** A signing program that answers as E-IMZO does, recording the calls. */
function program(answers: Record<string, Record<string, unknown>>) {
  const calls: Record<string, unknown>[] = [];
  const call = async (payload: Record<string, unknown>) => {
    calls.push(payload);
    const key = `${payload.plugin ?? ''}.${String(payload.name)}`;
    return answers[key] ?? { success: false, reason: 'unknown' };
  };
  return { calls, call };
}

describe('the E-IMZO provider', () => {
  it("reads the certificate from the program's alias", () => {
    expect(parseAlias(ALIAS)).toMatchObject({
      commonName: 'aliyev vali',
      organisation: '“sement” mchj',
      inn: '301234567',
      pinfl: '31234567890123',
      serialNumber: '7a3b2c',
      validFrom: '2024-01-15',
      validTo: '2026-01-15',
    });
  });

  it('refuses a program older than the version it needs', async () => {
    expect(versionOk(3, 37)).toBe(true);
    expect(versionOk(4, 0)).toBe(true);
    expect(versionOk(3, 20)).toBe(false);
    const { call } = program({ '.version': { success: true, major: '3', minor: '20' } });
    await expect(eimzoKeys(call)).rejects.toMatchObject({ key: 'esign.program_missing' });
  });

  it('says the signing application is missing when the program refuses the site', async () => {
    const { call } = program({ '.version': { success: true, major: '3', minor: '40' }, '.apikey': { success: false, reason: 'bad key' } });
    await expect(eimzoKeys(call)).rejects.toMatchObject({ key: 'esign.app_not_found' });
  });

  it('lists the key files, loads the chosen one and signs detached', async () => {
    const { calls, call } = program({
      '.version': { success: true, major: '3', minor: '40' },
      '.apikey': { success: true },
      'pfx.list_all_certificates': { success: true, certificates: [{ disk: 'C:', path: 'DSKEYS', name: 'DS301234567', alias: ALIAS }] },
      'pfx.load_key': { success: true, keyId: 'k1' },
      'pkcs7.create_pkcs7': { success: true, pkcs7_64: 'MIIB' },
    });
    const keys = await eimzoKeys(call);
    expect(keys).toHaveLength(1);
    expect(keys[0].certificate.inn).toBe('301234567');
    const key = await eimzoSigningKey(keys[0] as EimzoKey, call);
    expect(await key.sign(new TextEncoder().encode('{"a":"1"}'))).toBe('MIIB');
    expect(calls.at(-1)).toEqual({ plugin: 'pkcs7', name: 'create_pkcs7', arguments: [btoa('{"a":"1"}'), 'k1', 'yes'] });
    expect(calls[1]).toMatchObject({ name: 'apikey', arguments: ['localhost', expect.stringMatching(/^[0-9A-F]{128}$/)] });
  });
});
