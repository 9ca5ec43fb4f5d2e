/** A delivery to send: where, and the rendered texts. */
export interface Message {
  address: string;
  subject: string;
  body: string;
}

/** A failure that no retry will cure (nothing configured, no address): failed at once. */
export class PermanentFailure extends Error {}

export type Transport = (m: Message) => Promise<void>;

export interface TransportConfig {
  /** SMTP: `smtp://user:password@host:port` (or `smtps://`), or host and port */
  smtpUrl?: string;
  smtpHost?: string;
  smtpPort?: number;
  smtpUser?: string;
  smtpPassword?: string;
  smtpSecure?: boolean;
  /** never upgrade to TLS (a local test server); default: STARTTLS when offered */
  smtpIgnoreTls?: boolean;
  smtpFrom?: string;
  /** the SMS gateway: POST {to, text, from?} as JSON, a bearer token when given; any 2xx is sent */
  smsUrl?: string;
  smsToken?: string;
  smsFrom?: string;
  /** how long a gateway or SMTP server may take (ms) */
  timeoutMs?: number;
}

/** The transports' settings from the environment (docs/notifications.md lists them). */
export function transportConfigFromEnv(env: NodeJS.ProcessEnv = process.env): TransportConfig {
  return {
    smtpUrl: env.ECOFOND_SMTP_URL || undefined,
    smtpHost: env.ECOFOND_SMTP_HOST || undefined,
    smtpPort: env.ECOFOND_SMTP_PORT ? Number(env.ECOFOND_SMTP_PORT) : undefined,
    smtpUser: env.ECOFOND_SMTP_USER || undefined,
    smtpPassword: env.ECOFOND_SMTP_PASSWORD || undefined,
    smtpSecure: env.ECOFOND_SMTP_SECURE === '1' || env.ECOFOND_SMTP_SECURE === 'true',
    smtpIgnoreTls: env.ECOFOND_SMTP_IGNORE_TLS === '1' || env.ECOFOND_SMTP_IGNORE_TLS === 'true',
    smtpFrom: env.ECOFOND_SMTP_FROM || undefined,
    smsUrl: env.ECOFOND_SMS_URL || undefined,
    smsToken: env.ECOFOND_SMS_TOKEN || undefined,
    smsFrom: env.ECOFOND_SMS_FROM || undefined,
    timeoutMs: env.ECOFOND_NOTIFY_TIMEOUT_MS ? Number(env.ECOFOND_NOTIFY_TIMEOUT_MS) : undefined,
  };
}

/** E-mail through SMTP (nodemailer); without a server configured every e-mail fails at once, saying so. */
export function emailTransport(c: TransportConfig): Transport {
  if (!c.smtpUrl && !c.smtpHost)
    return async () => {
      throw new PermanentFailure('no SMTP server configured (ECOFOND_SMTP_URL or ECOFOND_SMTP_HOST)');
    };
  const timeout = c.timeoutMs ?? 15_000;
  // nodemailer is loaded with the first e-mail, not by every process that imports the transports
  let mailer: Promise<import('nodemailer').Transporter> | undefined;
  const load = () =>
    import('nodemailer').then(({ default: nodemailer }) =>
      c.smtpUrl
        ? nodemailer.createTransport(c.smtpUrl)
        : nodemailer.createTransport({
            host: c.smtpHost,
            port: c.smtpPort ?? 587,
            secure: c.smtpSecure ?? false,
            ignoreTLS: c.smtpIgnoreTls ?? false,
            auth: c.smtpUser ? { user: c.smtpUser, pass: c.smtpPassword ?? '' } : undefined,
            connectionTimeout: timeout,
            greetingTimeout: timeout,
            socketTimeout: timeout,
          }),
    );
  const from = c.smtpFrom ?? 'ecofond <no-reply@ecofond.uz>';
  return async (m) => {
    mailer ??= load();
    await (await mailer).sendMail({ from, to: m.address, subject: m.subject, text: m.body });
  };
}

/** SMS through an HTTP gateway; a non-2xx answer is a failure naming its status and the start of its body. */
export function smsTransport(c: TransportConfig): Transport {
  if (!c.smsUrl)
    return async () => {
      throw new PermanentFailure('no SMS gateway configured (ECOFOND_SMS_URL)');
    };
  const timeout = c.timeoutMs ?? 15_000;
  return async (m) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (c.smsToken) headers.Authorization = `Bearer ${c.smsToken}`;
    const res = await fetch(c.smsUrl!, {
      method: 'POST',
      headers,
      signal: AbortSignal.timeout(timeout),
      body: JSON.stringify({
        to: `+998${m.address.replace(/\D/g, '').slice(-9)}`,
        text: m.body,
        ...(c.smsFrom ? { from: c.smsFrom } : {}),
      }),
    });
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 200);
      throw new Error(`SMS gateway answered ${res.status}${text ? `: ${text}` : ''}`);
    }
  };
}

/**
 * The methods this installation can deliver by: e-mail with an SMTP server configured, SMS with a
 * gateway. The code routes ask it before promising a code (docs/accounts.md): with neither, a code
 * requested would sit failed in the queue, so the caller is told so plainly instead.
 */
export function deliverableChannels(c: TransportConfig = transportConfigFromEnv()): { email: boolean; sms: boolean } {
  return { email: !!(c.smtpUrl || c.smtpHost), sms: !!c.smsUrl };
}
