import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { extractText, getDocumentProxy } from 'unpdf';
import { startTestApi, type TestApi } from './support/api.ts';
import { formatVerifyCode, newVerifyCode, normaliseVerifyCode, VERIFY_ALPHABET } from '../api/domain/verify-code.ts';

/**
 * Documents anyone can verify (issue 28, decision 0075): an act printed from a template carries a
 * short code and a QR code of the public page that checks it; the public call answers what was
 * issued, by which office, when, the PDF's hash, the signature and whether it still stands —
 * never a value filled into the document — and says "withdrawn" once the act is deleted.
 */
let api: TestApi;
let aktId = 0;
let regionName: Record<string, string> = {};
const DIRECTOR = 'Қўчқоров Ҳамид Ғайратович';
const INN = '307654321';
const ADDRESS = 'Yunusobod 19-uy';
const A = '/api/ecofund/subject-akts';
const field = (code: string) => `<span data-field="${code}" data-kind="reserved">${code}</span>`;

async function pdfText(raw: ArrayBuffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(raw.slice(0)));
  const { text } = await extractText(pdf, { mergePages: true });
  return (text as unknown as string).replace(/\s+/g, ' ');
}

beforeAll(async () => {
  process.env.ECOFOND_PUBLIC_VERIFY_PER_HOUR = '40';
  api = await startTestApi();
  const k = api.db.knex;
  const region = await k('regions').orderBy('id').first('id', 'name');
  regionName = region.name;
  const admin = (await k('users').where({ username: 'admin' }).first('id')).id;
  const [subject] = await k('subjects')
    .insert({
      inn: INN,
      name: 'Yashil Vodiy MChJ',
      region_id: region.id,
      category_id: (await k('subject_categories').first('id')).id,
      address: ADDRESS,
      director: DIRECTOR,
    })
    .returning('id');
  const [stack] = await k('akt_stacks')
    .insert({
      number: 'S-9',
      stack_date: '2026-01-10',
      category_id: (await k('stack_akt_categories').first('id')).id,
      region_id: region.id,
    })
    .returning('id');
  const [akt] = await k('akts')
    .insert({
      stack_id: stack.id,
      subject_id: subject.id,
      region_id: region.id,
      akt_type_id: (await k('akt_types').first('id')).id,
      number: 'A-77',
      akt_date: '2026-10-01',
      amount: '375000.00',
      inspector: 'Olimov B.',
      created_by: admin,
      updated_by: admin,
    })
    .returning('id');
  aktId = akt.id;
  const type = await k('template_document_types').where({ code: 'ACT' }).first('id');
  const t = await api.post('/api/ecoinspection-dictionaries/template-documents', {
    type_id: type.id,
    name: 'Dalolatnoma',
    language: 'uz',
    is_active: true,
    body: `<h1>DALOLATNOMA</h1><p>№ ${field('NUMBER')}; ${field('OFFENDER')}, ${field('SUBJECT_INN')}, ${field('ADDRESS')}</p>`,
  });
  expect(t.status, JSON.stringify(t.body)).toBe(201);
});

afterAll(async () => {
  delete process.env.ECOFOND_PUBLIC_VERIFY_PER_HOUR;
  await api?.close();
});

describe('the check code', () => {
  it('is ten signs of an alphabet without look-alikes, read back however it is typed', () => {
    expect(VERIFY_ALPHABET).toHaveLength(30);
    expect(VERIFY_ALPHABET).not.toMatch(/[01ILOU]/);
    const code = newVerifyCode();
    expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{10}$/);
    expect(normaliseVerifyCode(` ${formatVerifyCode(code).toLowerCase()} `)).toBe(code);
    expect(normaliseVerifyCode('ABCDE-FGHJ0')).toBeNull(); // a zero is never in a code
    expect(normaliseVerifyCode('ABCDE')).toBeNull();
    expect(normaliseVerifyCode(42)).toBeNull();
  });
});

describe('a printed act checked by anyone', () => {
  let code = '';
  let docId = 0;
  let pdfSha = '';

  it('prints the act with its code and the public page its QR code opens', async () => {
    const r = await api.post(`${A}/${aktId}/documents`, {});
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    docId = r.body.id;
    code = r.body.verify_code;
    expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{10}$/);
    // the public site at the origin the back-office was reached at (no ECOFOND_PUBLIC_SITE_URL)
    expect(r.body.verify_url).toBe(`${api.url}/#/verify/${code}`);
    const page = await api.get(`/api/issued-documents/${docId}`);
    expect(page.body.verify_url).toBe(r.body.verify_url);
    const pdf = await api.get(`/api/issued-documents/${docId}/pdf`);
    expect(pdf.status).toBe(200);
    pdfSha = createHash('sha256').update(Buffer.from(pdf.raw)).digest('hex');
    expect(page.body.sha256).toBe(pdfSha);
    const text = await pdfText(pdf.raw);
    expect(text).toContain(formatVerifyCode(code));
    expect(text).toContain('Hujjatning haqiqiyligini tekshiring');
    expect(text).toContain(DIRECTOR); // the paper itself holds the filled values
  });

  it('answers the public, without sign-in, what was issued, by whom, when, its hash and signature', async () => {
    const r = await api.get(`/api/public/documents/${code}`, { token: '' });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toMatchObject({
      code,
      title: 'Dalolatnoma № A-77',
      language: 'uz',
      office: regionName,
      sha256: pdfSha,
      signature: 'paper',
      status: 'valid',
    });
    expect(r.body.kind.uz).toBeTruthy();
    expect(Math.abs(Date.parse(r.body.issued_at) - Date.now())).toBeLessThan(120_000);
    // typed as printed, in lower case with its hyphen
    const typed = await api.get(`/api/public/documents/${formatVerifyCode(code).toLowerCase()}`, { token: '' });
    expect(typed.body.code).toBe(code);
  });

  it('never shows the personal data filled into the document', async () => {
    const r = await api.get(`/api/public/documents/${code}`, { token: '', lang: 'ru' });
    // the code, the time and the file's hash are random digits and letters of their own (a hash held
    // "375" once): each is checked for its shape, the rest for the document's personal data
    const { code: shown, issued_at, sha256, ...rest } = r.body;
    expect(shown).toBe(code);
    expect(issued_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    const s = JSON.stringify(rest);
    for (const secret of [DIRECTOR, INN, ADDRESS, 'Olimov', 'Yashil Vodiy', '375']) expect(s).not.toContain(secret);
    expect(Object.keys(r.body).sort()).toEqual(
      ['code', 'issued_at', 'kind', 'language', 'office', 'sha256', 'signature', 'status', 'title'].sort(),
    );
  });

  it('answers 404 to a code nobody was given, and to what cannot be a code', async () => {
    let other = newVerifyCode();
    while (other === code) other = newVerifyCode();
    for (const c of [other, 'ABCDE', '0000000000', '%27%20or%201%3D1']) {
      const r = await api.get(`/api/public/documents/${c}`, { token: '', lang: 'ru' });
      expect(r.status, c).toBe(404);
      expect(r.body.message).toBeTruthy();
    }
    const long = await api.get(`/api/public/documents/${'A'.repeat(41)}`, { token: '' });
    expect(long.status).toBe(400);
  });

  it('says withdrawn once the act is withdrawn (deleted)', async () => {
    const d = await api.del(`${A}/${aktId}`);
    expect(d.status, JSON.stringify(d.body)).toBeLessThan(300);
    const r = await api.get(`/api/public/documents/${code}`, { token: '' });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('withdrawn');
    expect(r.body.sha256).toBe(pdfSha);
  });

  it('limits the checks per address', async () => {
    let limited: { status: number; body: { message?: string } } | undefined;
    for (let i = 0; i < 45 && !limited; i++) {
      const r = await api.get(`/api/public/documents/${code}`, { token: '', lang: 'uz' });
      if (r.status === 429) limited = r;
    }
    expect(limited?.body.message).toContain('Tekshiruvlar juda koʻp');
  });
});
