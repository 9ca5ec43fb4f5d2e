import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApi, type TestApi } from './support/api.ts';

/** Uploads: stored by content, typed by their bytes, refused when too large or of another type, and usable in a record. */
let api: TestApi;
beforeAll(async () => {
  process.env.ECOFOND_DATA_DIR = mkdtempSync(join(tmpdir(), 'ecofond-files-'));
  api = await startTestApi();
});
afterAll(async () => { await api?.close(); });

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const upload = (body: Buffer, name: string, token = api.adminToken) =>
  fetch(`${api.url}/api/resources/upload?name=${encodeURIComponent(name)}`, { method: 'POST', body, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' } })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe('resources', () => {
  it('stores a file, reads its type from its bytes and gives it back', async () => {
    const r = await upload(PNG, 'logo.png');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ original_name: 'logo.png', mime: 'image/png', size: PNG.length });
    const back = await fetch(`${api.url}/api/resources/${r.body.id}`, { headers: { Authorization: `Bearer ${api.adminToken}` } });
    expect(back.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await back.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${api.url}/api/resources/${r.body.id}`)).status).toBe(401);
    // a record may point at it
    const user = await api.post('/api/managing/users', { username: 'with_photo', password: 'secret-12', lang_code: 'uz', kind: 'staff', img_resource_id: r.body.id });
    expect(user.body.img_resource_id).toBe(r.body.id);
  });

  it('refuses unknown types, empty bodies and missing names', async () => {
    const exe = await upload(Buffer.from('MZ\x90\x00 not allowed'), 'virus.exe');
    expect(exe.status).toBe(400);
    expect(exe.body.errors).toEqual({ file: 'Bu turdagi fayl qabul qilinmaydi (PDF, rasm, Excel yoki Word)' });
    expect((await upload(Buffer.alloc(0), 'empty.pdf')).body.message).toBe('Fayl boʻsh');
    expect((await upload(PNG, '')).status).toBe(400);
  });
});
