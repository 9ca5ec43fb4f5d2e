import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { buildSignedData, encodeSignedData, issueCertificate, issueCrl, signDetached, type TestCert } from '../api/esign/test-pki.ts';
import { parseTimestampToken } from '../api/esign/timestamp.ts';
import { clearCrlCache } from '../api/esign/revocation.ts';
import { formatName } from '../api/esign/certificate.ts';
import { OZDST_SIGNATURE_OID, startCrlServer, startEimzoStandIn, type StandIn } from './support/eimzo-stand-in.ts';

/**
 * E-signature as used in the country (issue 28, decision 0073): every accepted signature is
 * time-stamped (RFC 3161) and the token kept with the report, its time the signing time; a revoked
 * certificate is refused with its message; an O'zDSt signature is verified by the E-IMZO server
 * (here a stand-in speaking its documented protocol).
 */
let api: TestApi;
let subjectId: number;
let ca: TestCert;
let standIn: StandIn;
let crlServer: Awaited<ReturnType<typeof startCrlServer>>;
const REPORTS = '/api/ecofund/subject-report-yearly';
const INN = '500000077';
const now = Date.now();

async function setConfig(key: string, value: string) {
  const k = api.db.knex;
  if (await k('app_configs').where({ key }).first('key')) await k('app_configs').where({ key }).update({ value });
  else await k('app_configs').insert({ key, value });
}

beforeAll(async () => {
  api = await startTestApi();
  const region = (await api.db.knex('regions').first('id')).id;
  const category = (await api.db.knex('subject_categories').first('id')).id;
  subjectId = (await api.post('/api/ecofund/subject', { inn: INN, name: 'Kimyo zavodi', region_id: region, category_id: category })).body
    .id;
  ca = await issueCertificate({
    subject: { cn: 'Test CA (revocation)', o: 'ecofond tests' },
    ca: true,
    notBefore: new Date(now - 86400000),
    notAfter: new Date(now + 86400000 * 365),
  });
  await setConfig('esign.trusted_cas', ca.pem);
  crlServer = await startCrlServer();
  standIn = await startEimzoStandIn({ trustedIssuer: formatName(ca.cert.subject) });
});
afterAll(async () => {
  await standIn?.close();
  await crlServer?.close();
  await api?.close();
});

const newReport = async () =>
  (
    await api.post(REPORTS, {
      subject_id: subjectId,
      year: 2025,
      period: 'q3',
      report_date: '2025-09-01',
      ingredients: [{ pollutant: 'Chang (PM10)', mass: '2.5', norm: '0.1' }],
    })
  ).body.id as number;

const signer = (o: { crlUrl?: string } = {}) =>
  issueCertificate({
    subject: { cn: 'Direktor', o: 'Kimyo zavodi', inn: INN },
    issuer: ca,
    notBefore: new Date(now - 86400000),
    notAfter: new Date(now + 86400000 * 30),
    ...o,
  });

async function content(id: number): Promise<Uint8Array> {
  return new Uint8Array(Buffer.from((await api.get(`${REPORTS}/${id}/signable`)).body.content, 'base64'));
}

describe('a locally verified signature', () => {
  it('is time-stamped: the token is kept with the report and its time is the signing time, not the client clock', async () => {
    const id = await newReport();
    const cert = await signer();
    // the signer's computer says 2001
    const sig = await signDetached({ content: await content(id), signer: cert, signingTime: new Date('2001-01-01T00:00:00Z') });
    const before = Date.now();
    const r = await api.post(`${REPORTS}/${id}/actions/send`, { signature: Buffer.from(sig).toString('base64') });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'sent', signed: true, signature_verified_by: 'local' });
    const row = await api.db.knex('subject_reports').where({ id }).first('signed_at', 'signature_timestamp', 'signature');
    expect(row.signature).toBe(Buffer.from(sig).toString('base64'));
    const token = parseTimestampToken(row.signature_timestamp);
    expect(token.tsa).toContain('ecofond local TSA');
    expect(new Date(row.signed_at).getTime()).toBe(token.genTime.getTime());
    expect(token.genTime.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(token.genTime.getTime()).toBeLessThanOrEqual(Date.now());
    // the token is over this signature's value (RFC 3161 appendix A)
    const asn = asn1js.fromBER(sig);
    const signerInfo = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: asn.result }).content }).signerInfos[0];
    const imprint = new Uint8Array(await crypto.subtle.digest('SHA-256', signerInfo.signature.valueBlock.valueHexView));
    expect(Buffer.from(token.imprint).toString('hex')).toBe(Buffer.from(imprint).toString('hex'));
  });
});

describe('revocation', () => {
  it('refuses a certificate its CA has revoked, in three languages, and sends nothing', async () => {
    clearCrlCache();
    const id = await newReport();
    const revoked = await signer({ crlUrl: crlServer.url });
    crlServer.crl.der = await issueCrl(ca, [revoked]);
    const sig = Buffer.from(await signDetached({ content: await content(id), signer: revoked })).toString('base64');
    for (const lang of ['uz', 'uk', 'ru']) {
      const r = await api.post(`${REPORTS}/${id}/actions/send`, { signature: sig }, { lang });
      expect(r.status, lang).toBe(400);
      expect(r.body.errors.signature, lang).toBe(api.model.captions[lang as 'uz']['esign.certificate_revoked']);
    }
    expect(api.model.captions.ru['esign.certificate_revoked']).toBe('Сертификат отозван удостоверяющим центром');
    const row = await api.db.knex('subject_reports').where({ id }).first('status', 'signed', 'signature_timestamp');
    expect(row).toEqual({ status: 'new', signed: false, signature_timestamp: null });
  });

  it('accepts a certificate the CRL does not list, and refuses when the CRL cannot be had', async () => {
    clearCrlCache();
    const id = await newReport();
    const good = await signer({ crlUrl: crlServer.url });
    const other = await signer();
    crlServer.crl.der = null; // the CRL server answers 503
    const sig = Buffer.from(await signDetached({ content: await content(id), signer: good })).toString('base64');
    const down = await api.post(`${REPORTS}/${id}/actions/send`, { signature: sig });
    expect(down.body.errors.signature).toBe(api.model.captions.uz['esign.revocation_unavailable']);
    crlServer.crl.der = await issueCrl(ca, [other]);
    const ok = await api.post(`${REPORTS}/${id}/actions/send`, { signature: sig });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // a CRL signed by someone else is not believed
    clearCrlCache();
    const id2 = await newReport();
    const stranger = await issueCertificate({ subject: { cn: 'Test CA (revocation)', o: 'ecofond tests' }, ca: true });
    crlServer.crl.der = await issueCrl(stranger, []);
    const sig2 = Buffer.from(await signDetached({ content: await content(id2), signer: good })).toString('base64');
    const forged = await api.post(`${REPORTS}/${id2}/actions/send`, { signature: sig2 });
    expect(forged.body.errors.signature).toBe(api.model.captions.uz['esign.revocation_unavailable']);
  });
});

describe("an O'zDSt (E-IMZO) signature", () => {
  async function ozdstSignature(id: number, cert: TestCert): Promise<string> {
    const sd = await buildSignedData({ content: await content(id), signer: cert, signingTime: new Date('2001-01-01T00:00:00Z') });
    sd.signerInfos[0].signatureAlgorithm.algorithmId = OZDST_SIGNATURE_OID;
    return Buffer.from(encodeSignedData(sd)).toString('base64');
  }

  it('is refused as unsupported without an E-IMZO server', async () => {
    await setConfig('esign.eimzo_server_url', '');
    const id = await newReport();
    const r = await api.post(`${REPORTS}/${id}/actions/send`, { signature: await ozdstSignature(id, await signer()) });
    expect(r.body.errors.signature).toBe(api.model.captions.uz['esign.unsupported_algorithm']);
  });

  it('is verified and time-stamped by the E-IMZO server when one is configured', async () => {
    await setConfig('esign.eimzo_server_url', standIn.url);
    await setConfig('esign.eimzo_host', 'ecofond.example.uz');
    const id = await newReport();
    standIn.calls.length = 0;
    const r = await api.post(`${REPORTS}/${id}/actions/send`, { signature: await ozdstSignature(id, await signer()) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      status: 'sent',
      signed: true,
      signature_verified_by: 'e-imzo',
      signer: expect.stringContaining('Direktor'),
    });
    expect(standIn.calls.map((c) => c.path)).toEqual(['/frontend/timestamp/pkcs7', '/backend/pkcs7/verify/detached']);
    expect(standIn.calls[0].host).toBe('ecofond.example.uz');
    const row = await api.db.knex('subject_reports').where({ id }).first('signed_at', 'signature_timestamp', 'signature');
    const token = parseTimestampToken(row.signature_timestamp);
    expect(token.tsa).toContain('E-IMZO stand-in TSA');
    expect(new Date(row.signed_at).getTime()).toBe(token.genTime.getTime());
    expect(Math.abs(token.genTime.getTime() - Date.now())).toBeLessThan(60_000);
    // the kept PKCS#7 is the one E-IMZO returned, with the token attached
    expect(row.signature.length).toBeGreaterThan(0);
  });

  it('is refused when E-IMZO says the certificate is revoked, or the signature does not verify', async () => {
    await setConfig('esign.eimzo_server_url', standIn.url);
    const id = await newReport();
    const cert = await signer();
    standIn.revoked.add(
      cert.cert.serialNumber.valueBlock.valueHexView.reduce((s, b) => s + b.toString(16).padStart(2, '0'), '').replace(/^0+/, ''),
    );
    const revoked = await api.post(`${REPORTS}/${id}/actions/send`, { signature: await ozdstSignature(id, cert) }, { lang: 'ru' });
    expect(revoked.body.errors.signature).toBe('Сертификат отозван удостоверяющим центром');
    // signed over other content
    const other = await newReport();
    const wrong = await api.post(`${REPORTS}/${id}/actions/send`, { signature: await ozdstSignature(other, await signer()) });
    expect(wrong.body.errors.signature).toBe(api.model.captions.uz['esign.signature_invalid']);
    expect((await api.db.knex('subject_reports').where({ id }).first('status')).status).toBe('new');
  });

  it('answers "E-IMZO server unavailable" when it cannot be reached', async () => {
    await setConfig('esign.eimzo_server_url', 'http://127.0.0.1:9');
    const id = await newReport();
    const r = await api.post(`${REPORTS}/${id}/actions/send`, { signature: await ozdstSignature(id, await signer()) });
    expect(r.status).toBe(400);
    expect(r.body.errors.signature).toBe(api.model.captions.uz['esign.eimzo_unavailable']);
    await setConfig('esign.eimzo_server_url', '');
  });
});
