import { issueCertificate, signDetached, type TestCert } from '../../api/esign/test-pki.ts';
import type { TestApi } from './api.ts';

/**
 * Signing a compensation report in API tests the way the back-office does: a throw-away CA made
 * trusted (`esign.trusted_cas`), a signer certificate for the subject's INN, and a detached
 * signature over the report's `GET …/:id/signable` content. A report is never sent unsigned.
 */
const REPORTS = '/api/ecofund/subject-report-yearly';

export interface ReportSigner {
  ca: TestCert;
  /** a signature over the report's signable content, by a certificate of the report subject's INN */
  sign: (id: number, opts?: { token?: string }) => Promise<string>;
}

export async function trustTestCA(api: TestApi): Promise<ReportSigner> {
  const now = Date.now();
  const ca = await issueCertificate({
    subject: { cn: 'Test CA', o: 'ecofond tests' },
    ca: true,
    notBefore: new Date(now - 86400000),
    notAfter: new Date(now + 86400000 * 365),
  });
  const row = await api.db.knex('app_configs').where({ key: 'esign.trusted_cas' }).first('value');
  if (row)
    await api.db
      .knex('app_configs')
      .where({ key: 'esign.trusted_cas' })
      .update({ value: `${row.value}\n${ca.pem}` });
  else await api.db.knex('app_configs').insert({ key: 'esign.trusted_cas', value: ca.pem });
  const certs = new Map<string, TestCert>();
  return {
    ca,
    sign: async (id, opts = {}) => {
      const { inn } = await api.db
        .knex('subject_reports as r')
        .join('subjects as s', 's.id', 'r.subject_id')
        .where('r.id', id)
        .first('s.inn');
      let cert = certs.get(inn);
      if (!cert) {
        cert = await issueCertificate({
          subject: { cn: 'Direktor', o: 'Test', inn },
          issuer: ca,
          notBefore: new Date(now - 86400000),
          notAfter: new Date(now + 86400000 * 30),
        });
        certs.set(inn, cert);
      }
      const { content } = (await api.get(`${REPORTS}/${id}/signable`, opts.token ? { token: opts.token } : {})).body;
      return Buffer.from(await signDetached({ content: Buffer.from(content, 'base64'), signer: cert })).toString('base64');
    },
  };
}
