import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { startTestApi, type TestApi } from './support/api.ts';
import { formatVerifyCode } from '../api/domain/verify-code.ts';
import { seedTemplateDemo } from '../seeds/demo-templates.ts';
import { seed } from '../seeds/index.ts';
import { loadMetadata } from '../api/meta/load.ts';

/**
 * Issue 28 for the fund and the permits: a compensation report (subject-report-yearly), a given
 * permit (given-permits) and a tree-felling permit (tree-cutting-permits) print from the seeded
 * default templates of their types (COMPENSATION, PERMIT, FELLING) in uz, uk and ru; each print is
 * an issued document with a check code whose PDF carries it, and the public check answers its
 * kind and office — never the holder, their PINFL or INN, the subject or the amount.
 */
let api: TestApi;
let regionName: Record<string, string> = {};
const SUBJECT = 'Toza Havo Sanoat AJ';
const INN = '301122334';
const PERSON = 'Ғаниева Мадина Қодировна';
const PINFL = '41204871230045';
const APPLICANT = 'Raximov Sardor Baxtiyorovich';
const APPLICANT_PINFL = '31509881110027';
const ids = { report: 0, permit: 0, felling: 0 };
const SECRETS = [SUBJECT, INN, PERSON, PINFL, APPLICANT, APPLICANT_PINFL, '2 750 000', '2750000', '1 480 000'];

async function pdfText(raw: ArrayBuffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(raw.slice(0)));
  const { text } = await extractText(pdf, { mergePages: true });
  return (text as unknown as string).replace(/\s+/g, ' ');
}

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  await seedTemplateDemo(k);
  const region = await k('regions').orderBy('id').first('id', 'name');
  regionName = region.name;
  const [subject] = await k('subjects')
    .insert({
      inn: INN,
      name: SUBJECT,
      region_id: region.id,
      category_id: (await k('subject_categories').first('id')).id,
      address: 'Chilonzor 7-mavze',
      director: 'Olimov Bobur',
    })
    .returning('id');
  const [report] = await k('subject_reports')
    .insert({
      subject_id: subject.id,
      region_id: region.id,
      year: 2026,
      period: 'q3',
      report_date: '2026-10-12',
      amount: '2750000.00',
      late_fine: '0.00',
    })
    .returning('id');
  ids.report = report.id;
  const [permit] = await k('given_permits')
    .insert({
      type_id: (await k('given_permit_types').where({ code: 'EMISSION' }).first('id')).id,
      number: 'R-2026-014',
      issued_on: '2026-09-01',
      holder_kind: 'person',
      person_name: PERSON,
      person_pinfl: PINFL,
      region_id: region.id,
      object: 'Qozonxonadan atmosferaga chiqindi tashlash',
      valid_from: '2026-09-01',
      valid_to: '2027-08-31',
    })
    .returning('id');
  ids.permit = permit.id;
  const [felling] = await k('tree_cutting_permits')
    .insert({
      number: 'DK-0042',
      issued_on: '2026-10-20',
      region_id: region.id,
      applicant: APPLICANT,
      applicant_inn: APPLICANT_PINFL,
      address: 'Bodomzor yoʻli 3',
      species_id: (await k('tree_species').orderBy('id').first('id')).id,
      trees: 12,
      reason: 'construction',
      valid_from: '2026-10-20',
      valid_to: '2026-12-31',
      compensation: '1480000.00',
      status: 'issued',
    })
    .returning('id');
  ids.felling = felling.id;
});

afterAll(async () => {
  await api?.close();
});

const CASES = [
  {
    what: 'a compensation report',
    path: () => `/api/ecofund/subject-report-yearly/${ids.report}`,
    type: 'COMPENSATION',
    kind: 'Kompensatsiya toʻlovlari hisoboti',
    paper: {
      uz: ['KOMPENSATSIYA TOʻLOVLARI HISOBOTI', SUBJECT, '2 750 000,00'],
      uk: ['КОМПЕНСАЦИЯ ТЎЛОВЛАРИ ҲИСОБОТИ'],
      ru: ['ОТЧЁТ О КОМПЕНСАЦИОННЫХ ПЛАТЕЖАХ', 'два миллиона семьсот пятьдесят тысяч'],
    },
  },
  {
    what: 'a given permit',
    path: () => `/api/ecoinspection-dictionaries/given-permits/${ids.permit}`,
    type: 'PERMIT',
    kind: 'Ruxsatnoma',
    paper: {
      uz: ['RUXSATNOMA', 'R-2026-014', PERSON, 'Qozonxonadan atmosferaga', '31.08.2027'],
      uk: ['РУХСАТНОМА'],
      ru: ['РАЗРЕШЕНИЕ', 'Срок действия: с 01.09.2026 по 31.08.2027'],
    },
  },
  {
    what: 'a tree-felling permit',
    path: () => `/api/ecofund-plantings/tree-cutting-permits/${ids.felling}`,
    type: 'FELLING',
    kind: 'Daraxt kesishga ruxsatnoma',
    paper: {
      uz: ['DARAXT KESISHGA RUXSATNOMA', 'DK-0042', APPLICANT, 'oʻn ikki', '1 480 000,00'],
      uk: ['ДАРАХТ КЕСИШГА РУХСАТНОМА'],
      ru: ['РАЗРЕШЕНИЕ НА ВЫРУБКУ ДЕРЕВЬЕВ', 'двенадцать'],
    },
  },
] as const;

describe.each(CASES)('$what issued and checked by anyone', (c) => {
  it('lists the default templates of its type in the three languages', async () => {
    const r = await api.get(`${c.path()}/documents`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.type.code).toBe(c.type);
    expect(r.body.templates.map((t: { language: string }) => t.language).sort()).toEqual(['ru', 'uk', 'uz']);
  });

  for (const lang of ['uz', 'uk', 'ru'] as const) {
    it(`issues it in ${lang} with a check code its PDF carries, and the public check names its kind and office only`, async () => {
      const r = await api.post(`${c.path()}/documents`, {}, { lang });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.language).toBe(lang);
      const code = r.body.verify_code as string;
      expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{10}$/);
      expect(r.body.text).not.toContain('________ ________'); // the record fills its placeholders
      const pdf = await api.get(`/api/issued-documents/${r.body.id}/pdf`);
      expect(pdf.status).toBe(200);
      const text = await pdfText(pdf.raw);
      expect(text).toContain(formatVerifyCode(code));
      for (const s of c.paper[lang]) expect(text, s).toContain(s);

      const check = await api.get(`/api/public/documents/${code}`, { token: '', lang });
      expect(check.status).toBe(200);
      expect(check.body).toMatchObject({ code, language: lang, office: regionName, status: 'valid' });
      expect(check.body.kind.uz).toBe(c.kind);
      expect(check.body.kind.ru).toBeTruthy();
      expect(check.body.kind.uk).toMatch(/[А-Яа-яЎўҚқҒғҲҳ]/);
      const s = JSON.stringify(check.body);
      for (const secret of SECRETS) expect(s).not.toContain(secret);
    });
  }
});

describe('the back-office', () => {
  it('offers the print button on these records (their client metadata names the document type)', async () => {
    const r = await api.get('/api/meta');
    expect(r.status).toBe(200);
    const body = JSON.stringify(r.body);
    for (const type of ['COMPENSATION', 'PERMIT', 'FELLING']) expect(body).toContain(`"documents":{"type":"${type}"}`);
  });
});

describe('a permit revoked after issue', () => {
  const CASES_REVOKED = [
    {
      what: 'a given permit, terminated by its workflow action',
      path: () => `/api/ecoinspection-dictionaries/given-permits/${ids.permit}`,
      revoke: (path: string) =>
        api.post(`${path}/actions/terminate-validity`, { terminated_on: '2026-11-01', comment: 'Talablar buzilgan' }),
    },
    {
      what: 'a tree-felling permit, revoked',
      path: () => `/api/ecofund-plantings/tree-cutting-permits/${ids.felling}`,
      revoke: async (path: string) => api.put(path, { ...(await api.get(path)).body, status: 'revoked' }),
    },
  ];
  for (const c of CASES_REVOKED) {
    it(`${c.what}: its documents are checked as withdrawn (documents.withdrawnWhen)`, async () => {
      const issued = await api.post(`${c.path()}/documents`, {}, { lang: 'uz' });
      expect(issued.status, JSON.stringify(issued.body)).toBe(201);
      const code = issued.body.verify_code as string;
      expect((await api.get(`/api/public/documents/${code}`, { token: '' })).body.status).toBe('valid');
      const revoked = await c.revoke(c.path());
      expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
      expect((await api.get(`/api/public/documents/${code}`, { token: '' })).body.status).toBe('withdrawn');
    });
  }
});

describe('an install seeded before these document types', () => {
  it('gets the new types and reserved fields on its next seed, the rows it had kept as they were', async () => {
    const k = api.db.knex;
    await k('td_field_reserved_types').where({ code: 'REASON' }).delete();
    await k('td_field_reserved_types')
      .where({ code: 'HOLDER' })
      .update({ name: JSON.stringify({ uz: 'Egasi (tahrirlangan)', uk: 'Эгаси', ru: 'Владелец' }) });
    await seed(k, loadMetadata(), {});
    expect(await k('td_field_reserved_types').where({ code: 'REASON' }).first('code')).toBeTruthy();
    expect((await k('td_field_reserved_types').where({ code: 'HOLDER' }).first('name')).name.uz).toBe('Egasi (tahrirlangan)');
    const types = (await k('template_document_types').select('code')).map((r: { code: string }) => r.code);
    for (const code of ['ACT', 'PROTOCOL', 'DECREE', 'COMPENSATION', 'PERMIT', 'FELLING']) expect(types).toContain(code);
    expect(types.filter((c: string) => c === 'FELLING')).toHaveLength(1);
  });
});
