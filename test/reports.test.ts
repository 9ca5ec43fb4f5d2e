import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { issueCertificate, signDetached } from '../api/esign/test-pki.ts';
import { trustTestCA, type ReportSigner } from './support/report-signing.ts';

/**
 * Compensation reports: the amount computed from the ingredients at the base value of the report's
 * date, every workflow transition allowed exactly from its states with a flow row, and sending
 * with an e-signature verified against the trusted CAs and the subject's INN.
 */
let api: TestApi;
let subjectId: number;
let signer0: ReportSigner;
const REPORTS = '/api/ecofund/subject-report-yearly';
const INN = '500000001';

beforeAll(async () => {
  api = await startTestApi();
  const region = (await api.db.knex('regions').first('id')).id;
  const category = (await api.db.knex('subject_categories').first('id')).id;
  subjectId = (await api.post('/api/ecofund/subject', { inn: INN, name: 'Sement zavodi', region_id: region, category_id: category })).body
    .id;
  signer0 = await trustTestCA(api);
});
afterAll(async () => {
  await api?.close();
});

const report = (over: Record<string, unknown> = {}) =>
  api.post(REPORTS, {
    subject_id: subjectId,
    year: 2025,
    period: 'q3',
    report_date: '2025-09-01',
    ingredients: [
      { pollutant: 'Chang (PM10)', mass: '2.5', norm: '0.1', coefficient2: '1.2' },
      { pollutant: 'Azot dioksidi', mass: '1.25', norm: '0.04' },
    ],
    ...over,
  });

describe('the compensation amount', () => {
  it('is computed from the ingredients at the base value in force on the report date', async () => {
    const r = await report();
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    // base value on 2025-09-01: 412 000.00 (from 2025-08-01)
    // 2.5 × 0.1 × 1 × 1.2 = 0.3 → 123 600.00;  1.25 × 0.04 = 0.05 → 20 600.00;  total 144 200.00
    expect(r.body).toMatchObject({ base_value: '412000.00', amount: '144200.00', status: 'new', region_id: expect.any(Number) });
    expect(r.body.ingredients.map((l: { amount: string }) => l.amount)).toEqual(['123600.00', '20600.00']);
    // the same report dated in July uses the base value then in force: 375 000.00
    const july = await api.put(`${REPORTS}/${r.body.id}`, { report_date: '2025-07-15', version: r.body.version });
    expect(july.body).toMatchObject({ base_value: '375000.00', amount: '131250.00' });
  });

  it('refuses a month on a quarterly report and a report before any base value', async () => {
    expect((await report({ month: 4 })).body.errors).toEqual({ month: 'Oy faqat oylik hisobotda koʻrsatiladi va unda majburiy' });
    const old = await report({ report_date: '2001-01-01', year: 2001 });
    expect(old.status).toBe(400);
    expect(old.body.errors.report_date).toBe('Hisobot sanasida amalda boʻlgan bazaviy hisoblash miqdori topilmadi');
  });
});

describe('the report workflow', () => {
  it('allows each action exactly from its states, writes a flow row, and otherwise changes nothing', { timeout: 120_000 }, async () => {
    const e = api.model.entities.get('subject-report-yearly')!;
    const states = e.fields.status.values!;
    const id = (await report()).body.id as number;
    let checked = 0;
    for (const [name, action] of Object.entries(e.workflow!.actions)) {
      for (const state of states) {
        await api.db.knex('subject_reports').where({ id }).update({ status: state, confirmed: false, escalated_to: null });
        const flowsBefore = (await api.db.knex('flows').where({ entity: e.name, record_id: id }).count({ n: '*' }))[0].n;
        const body: Record<string, unknown> = { comment: 'sabab' };
        if (name === 'send') body.signature = await signer0.sign(id);
        const r = await api.post(`${REPORTS}/${id}/actions/${name}`, body);
        const after = await api.db.knex('subject_reports').where({ id }).first();
        const flowsAfter = (await api.db.knex('flows').where({ entity: e.name, record_id: id }).count({ n: '*' }))[0].n;
        if (action.from.includes(state)) {
          expect(r.status, `${name} from ${state}: ${JSON.stringify(r.body)}`).toBe(200);
          expect(after.status, `${name} from ${state}`).toBe(action.to ?? state);
          for (const [f, v] of Object.entries(action.set ?? {})) expect(after[f], `${name} sets ${f}`).toBe(v);
          expect(Number(flowsAfter)).toBe(Number(flowsBefore) + 1);
        } else {
          expect(r.status, `${name} from ${state}`).toBe(409);
          expect(r.body.code).toBe(-113);
          expect(after.status).toBe(state);
          expect(Number(flowsAfter)).toBe(Number(flowsBefore));
        }
        checked++;
      }
    }
    expect(checked).toBe(Object.keys(e.workflow!.actions).length * states.length);
  });

  it('asks for a comment where the action needs one, and keeps each user to their action ids', async () => {
    const id = (await report()).body.id as number;
    await api.post(`${REPORTS}/${id}/actions/send`, { signature: await signer0.sign(id) });
    const noComment = await api.post(`${REPORTS}/${id}/actions/reject`, {}, { lang: 'ru' });
    expect(noComment.body.errors).toEqual({ comment: 'Обязательное поле' });
    const inspector = await api.userWithActions('report_inspector', [5201, 6212, 6215]);
    expect((await api.post(`${REPORTS}/${id}/actions/accept`, {}, { token: inspector })).status).toBe(403);
    expect((await api.post(`${REPORTS}/${id}/actions/take`, {}, { token: inspector })).status).toBe(200);
    const rejected = await api.post(`${REPORTS}/${id}/actions/reject`, { comment: 'Massa notoʻgʻri' }, { token: inspector });
    expect(rejected.body.status).toBe('rejected');
    const flows = (await api.get(`${REPORTS}/${id}/flows`)).body;
    expect(flows.map((f: { action: string; comment: string | null }) => [f.action, f.comment])).toEqual([
      ['send', null],
      ['take', null],
      ['reject', 'Massa notoʻgʻri'],
    ]);
  });
});

describe('sending with an e-signature', () => {
  const now = Date.now();
  let ca: Awaited<ReturnType<typeof issueCertificate>>;
  beforeAll(async () => {
    ca = signer0.ca;
  });
  const signer = (over: { inn?: string; notBefore?: Date; notAfter?: Date; issuer?: typeof ca } = {}) =>
    issueCertificate({
      subject: { cn: 'Direktor', o: 'Sement zavodi', inn: over.inn ?? INN },
      issuer: over.issuer ?? ca,
      notBefore: over.notBefore ?? new Date(now - 86400000),
      notAfter: over.notAfter ?? new Date(now + 86400000 * 30),
    });
  async function sign(id: number, cert: Awaited<ReturnType<typeof signer>>, tamper = false) {
    const { content } = (await api.get(`${REPORTS}/${id}/signable`)).body;
    const bytes = Buffer.from(content, 'base64');
    if (tamper) bytes[bytes.length - 3] ^= 1;
    return Buffer.from(await signDetached({ content: bytes, signer: cert })).toString('base64');
  }

  it("accepts a valid signature over the report's canonical content and records the signer", async () => {
    const id = (await report()).body.id as number;
    const cert = await signer();
    const r = await api.post(`${REPORTS}/${id}/actions/send`, { signature: await sign(id, cert) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'sent', signed: true });
    expect(r.body.signer).toContain('Direktor');
  });

  it('refuses tampered content, an expired certificate, another INN and an untrusted issuer, each with its message', async () => {
    const cases: [string, () => Promise<string>, string][] = [];
    const id = (await report()).body.id as number;
    const good = await signer();
    const expired = await signer({ notBefore: new Date(now - 86400000 * 60), notAfter: new Date(now - 86400000) });
    const otherInn = await signer({ inn: '599999999' });
    const otherCa = await issueCertificate({
      subject: { cn: 'Other CA' },
      ca: true,
      notBefore: new Date(now - 86400000),
      notAfter: new Date(now + 86400000 * 365),
    });
    const untrusted = await signer({ issuer: otherCa });
    cases.push(['tampered', () => sign(id, good, true), 'esign.signature_invalid']);
    cases.push(['expired', () => sign(id, expired), 'esign.certificate_expired']);
    cases.push(['wrong INN', () => sign(id, otherInn), 'esign.tax_id_mismatch']);
    cases.push(['untrusted', () => sign(id, untrusted), 'esign.untrusted_issuer']);
    for (const [name, make, key] of cases) {
      const r = await api.post(`${REPORTS}/${id}/actions/send`, { signature: await make() }, { lang: 'ru' });
      expect(r.status, name).toBe(400);
      expect(r.body.errors.signature, name).toBe(api.model.captions.ru[key]);
      const row = await api.db.knex('subject_reports').where({ id }).first('status', 'signed', 'signature');
      expect(row, name).toEqual({ status: 'new', signed: false, signature: null });
    }
    const garbage = await api.post(`${REPORTS}/${id}/actions/send`, { signature: 'bm90IGEgc2lnbmF0dXJl' });
    expect(garbage.body.errors.signature).toBe(api.model.captions.uz['esign.data_failed']);
  });

  it('never sends unsigned: "save without signature" saves the report where it is, unsigned', async () => {
    const id = (await report()).body.id as number;
    const none = await api.post(`${REPORTS}/${id}/actions/send`, {});
    expect(none.body.errors.signature).toBe(api.model.captions.uz['esign.required']);
    // the old "skip" flag sends nothing either
    const skip = await api.post(`${REPORTS}/${id}/actions/send`, { skip_signature: true });
    expect(skip.status).toBe(400);
    expect((await api.db.knex('subject_reports').where({ id }).first('status')).status).toBe('new');
    const saved = await api.post(`${REPORTS}/${id}/actions/save-unsigned`, {});
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ status: 'new', signed: false, signer: null, signed_at: null, amount: '144200.00' });
    // a signed report is sent with its signer and time
    const sent = await api.post(`${REPORTS}/${id}/actions/send`, { signature: await signer0.sign(id) });
    expect(sent.body).toMatchObject({
      status: 'sent',
      signed: true,
      signer: expect.stringContaining('Direktor'),
      signed_at: expect.any(String),
    });
    // once sent, it cannot be "saved unsigned" (409): its signature stays
    expect((await api.post(`${REPORTS}/${id}/actions/save-unsigned`, {})).status).toBe(409);
  });
});
