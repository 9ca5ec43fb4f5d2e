/**
 * The project's own test certificate authority, which the demo trusts out of the box (the demo
 * seeds put it in `esign.trusted_cas`; decision 0074). Its PRIVATE KEY IS PUBLIC (it is here):
 * anyone can issue certificates under it, so a deployment must never trust it — the settings
 * screen's `esign.trusted_cas` lists the CAs in force, and the signing screen warns while a test CA
 * is among them. Tests and the demo issue key files under it (e2e/pki.ts). Made once with
 * api/esign/test-pki.ts (ECDSA P-256, valid 2026–2046).
 */
export const DEMO_CA_CERT_PEM = `-----BEGIN CERTIFICATE-----
MIIB/jCCAaOgAwIBAgIDGisBMAoGCCqGSM49BAMCMFMxUTAJBgNVBAYTAlVaMCUG
A1UECgweZWNvZm9uZCBkZW1vIOKAlCBub3QgYSByZWFsIENBMB0GA1UEAwwWZWNv
Zm9uZCBUZXN0IENBIChkZW1vKTAeFw0yNjAxMDEwMDAwMDBaFw00NjAxMDEwMDAw
MDBaMFMxUTAJBgNVBAYTAlVaMCUGA1UECgweZWNvZm9uZCBkZW1vIOKAlCBub3Qg
YSByZWFsIENBMB0GA1UEAwwWZWNvZm9uZCBUZXN0IENBIChkZW1vKTBZMBMGByqG
SM49AgEGCCqGSM49AwEHA0IABPDGLeIvCR/Dmc72NjgQfkFxFyFri7vE1npQJ6bL
kCdxU7FaNQvU0JC24z15YEmTltmLMIfABHyq853/6drlF/qjZjBkMBIGA1UdEwEB
/wQIMAYBAf8CAQAwDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBQT2NZ90JAmBub5
wP68qA9H0Vh6YTAfBgNVHSMEGDAWgBQT2NZ90JAmBub5wP68qA9H0Vh6YTAKBggq
hkjOPQQDAgNJADBGAiEA3+vQKzzY3Tkai+4vBkHHQaHuuKIpu4iXO7IPH4zoQjkC
IQDgMT2Xe+cZvAURyZpCq+XTe4SOHg3AEwll0tUiljJAdg==
-----END CERTIFICATE-----
`;

export const DEMO_CA_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgE0gxrTKHvV7kgfZV
/Kd3HuxnKmZBR8uv749gs9Q1hpqhRANCAATwxi3iLwkfw5nO9jY4EH5BcRcha4u7
xNZ6UCemy5AncVOxWjUL1NCQtuM9eWBJk5bZizCHwAR8qvOd/+na5Rf6
-----END PRIVATE KEY-----
`;

/** The demo CA's subject, as the signing screen shows it. */
export const DEMO_CA_NAME = 'ecofond Test CA (demo)';
