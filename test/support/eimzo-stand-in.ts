import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import {
  createLocalTsa,
  TSP_OIDS,
  embeddedTimestampToken,
  parseTimestampToken,
  timestampRequest,
  tokenFromResponse,
} from '../../api/esign/timestamp.ts';
import { formatName, serialHex } from '../../api/esign/certificate.ts';

/**
 * A stand-in for the vendor's E-IMZO-SERVER in tests, speaking its documented REST protocol
 * (github.com/qo0p/e-imzo-doc §2.2; api/esign/eimzo-server.ts): `GET /frontend/challenge`,
 * `POST /frontend/timestamp/pkcs7`, `POST /backend/pkcs7/verify/{detached,attached}`, JSON answers
 * with `status` 1. Its "O'zDSt" is ECDSA P-256 with SHA-256 under O'zDSt OIDs (`OZDST_SIGNATURE_OID`):
 * the local verifier refuses those OIDs, the stand-in checks them as ECDSA — the protocol is what is
 * tested, not the national algorithms. Certificates whose serial is in `revoked` are answered with
 * `revokedStatusInfo`; a signer is `certificateVerified` when its issuer's name is `trustedIssuer`.
 */
export const OZDST_SIGNATURE_OID = '1.2.860.3.15.1.1.2.2.1';

export interface StandIn {
  url: string;
  calls: { path: string; host?: string; realIp?: string }[];
  revoked: Set<string>;
  close(): Promise<void>;
}

export async function startEimzoStandIn(o: { trustedIssuer: string }): Promise<StandIn> {
  const tsa = await createLocalTsa('E-IMZO stand-in TSA');
  const calls: StandIn['calls'] = [];
  const revoked = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    const path = (req.url ?? '').split('?')[0];
    calls.push({ path, host: req.headers.host, realIp: req.headers['x-real-ip'] as string | undefined });
    const send = (json: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    try {
      if (path === '/frontend/challenge') return send({ challenge: crypto.randomUUID(), ttl: 120, status: 1, message: '' });
      if (path === '/frontend/timestamp/pkcs7') {
        const sd = signedData(body);
        const si = sd.signerInfos[0];
        if (embeddedTimestampToken(si)) return send({ pkcs7b64: body, timestampedSignerList: [], status: 1, message: '' });
        const imprint = new Uint8Array(await crypto.subtle.digest('SHA-256', si.signature.valueBlock.valueHexView));
        const token = tokenFromResponse(await tsa.respond(timestampRequest(imprint, new Uint8Array([1, 2, 3]))));
        si.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
          type: 1,
          attributes: [new pkijs.Attribute({ type: TSP_OIDS.timeStampToken, values: [asn1js.fromBER(token).result] })],
        });
        const info = new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: sd.toSchema(true) });
        return send({
          pkcs7b64: Buffer.from(info.toSchema().toBER(false)).toString('base64'),
          timestampedSignerList: [{}],
          status: 1,
          message: '',
        });
      }
      if (path === '/backend/pkcs7/verify/detached' || path === '/backend/pkcs7/verify/attached') {
        const [a, b] = body.split('|');
        const detached = path.endsWith('detached');
        const sd = signedData(detached ? b : a);
        const content = detached
          ? new Uint8Array(Buffer.from(a, 'base64'))
          : new Uint8Array(sd.encapContentInfo.eContent?.getValue() ?? new ArrayBuffer(0));
        return send({
          pkcs7Info: { signers: await Promise.all(sd.signerInfos.map((si) => describe(sd, si, content))) },
          status: 1,
          message: '',
        });
      }
      res.writeHead(404).end();
    } catch (e) {
      send({ status: -1, message: (e as Error).message });
    }
  });

  async function describe(sd: pkijs.SignedData, si: pkijs.SignerInfo, content: Uint8Array) {
    const cert = (sd.certificates ?? []).find((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)!;
    const attrs = si.signedAttrs!;
    const md = attrs.attributes.find((x) => x.type === '1.2.840.113549.1.9.4')!.values[0] as asn1js.OctetString;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', content));
    const key = await crypto.subtle.importKey(
      'spki',
      cert.subjectPublicKeyInfo.toSchema().toBER(false),
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    const raw = ecdsaRaw(si.signature.valueBlock.valueHexView);
    const verified =
      Buffer.compare(Buffer.from(md.valueBlock.valueHexView), Buffer.from(digest)) === 0 &&
      (await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, raw, new Uint8Array(attrs.encodedValue)));
    const token = embeddedTimestampToken(si);
    const serial = serialHex(cert);
    const subjectInfo: Record<string, string> = {};
    for (const tv of cert.subject.typesAndValues) {
      const name = { '2.5.4.3': 'CN', '2.5.4.10': 'O', '2.5.4.6': 'C', '0.9.2342.19200300.100.1.1': 'UID' }[tv.type] ?? tv.type;
      subjectInfo[name] = String((tv.value.valueBlock as { value?: unknown }).value ?? '');
    }
    const fmt = (d: Date) => new Date(d.getTime() + 5 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    const at = token ? parseTimestampToken(token).genTime : new Date();
    return {
      signerId: { issuer: formatName(cert.issuer), subjectSerialNumber: serial },
      signingTime: fmt(new Date()),
      certificate: [
        {
          subjectInfo,
          serialNumber: serial,
          subjectName: formatName(cert.subject),
          issuerName: formatName(cert.issuer),
          validFrom: fmt(cert.notBefore.value),
          validTo: fmt(cert.notAfter.value),
          publicKey: { keyAlgName: 'OZDST-1092-2009-2' },
          signature: { signAlgName: 'OZDST-1106-2009-2-AwithOZDST-1092-2009-2' },
        },
      ],
      verified,
      certificateVerified: formatName(cert.issuer) === o.trustedIssuer,
      certificateValidAtSigningTime: cert.notBefore.value <= at && at <= cert.notAfter.value,
      ...(revoked.has(serial) ? { revokedStatusInfo: { reason: 'keyCompromise', revocationDate: fmt(new Date()) } } : {}),
      ...(token ? { timeStampInfo: { verified: true, time: fmt(parseTimestampToken(token).genTime) } } : {}),
    };
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, revoked, close: () => new Promise((r) => server.close(() => r())) };
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function signedData(b64: string): pkijs.SignedData {
  const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(Buffer.from(b64, 'base64'))).result });
  return new pkijs.SignedData({ schema: info.content });
}

function ecdsaRaw(der: Uint8Array): Uint8Array {
  const seq = asn1js.fromBER(der).result as asn1js.Sequence;
  const out = new Uint8Array(64);
  seq.valueBlock.value.forEach((v, i) => {
    let b = (v as asn1js.Integer).valueBlock.valueHexView;
    while (b.length > 32 && b[0] === 0) b = b.subarray(1);
    out.set(b, i * 32 + 32 - b.length);
  });
  return out;
}

/** A CRL server for tests: `GET /crl` answers whatever `crl` holds (DER). */
export async function startCrlServer(): Promise<{ url: string; crl: { der: Uint8Array | null }; close(): Promise<void> }> {
  const state = { der: null as Uint8Array | null };
  const server = createServer((_req, res) => {
    if (!state.der) return res.writeHead(503).end();
    res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(Buffer.from(state.der));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/crl`;
  return { url, crl: state, close: () => new Promise((r) => server.close(() => r())) };
}
