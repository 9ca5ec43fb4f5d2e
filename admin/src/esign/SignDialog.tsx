import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Button as MuiButton,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Radio,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useNotify, useTranslate, type RaRecord } from 'react-admin';
import { useFetch, errorMessage } from '../api/useFetch';
import { i18n } from '../i18n';
import type { EntityMeta, WorkflowActionMeta } from '../meta/types';
import { formatDate, formatNumber } from '../generic/format';
import { useRunAction } from '../generic/useRunAction';
import { ESignFailure, type CertificateInfo, type SigningKey } from './types';
import { eimzoKeys, eimzoSigningKey, type EimzoKey } from './eimzo';
import { fromBase64, openKeyFile } from './pkcs12';

interface Signable {
  content: string;
  document: Record<string, unknown>;
  /** whose certificates the server accepts (api/esign/trust.ts trustSummary) */
  trust?: { cas: string[]; test: boolean; eimzoServer: boolean; tsa: 'local' | 'external' };
}

/** Says plainly whose keys are accepted here, how E-IMZO keys fare, and where the signing time comes from. */
function TrustNote({ trust }: { trust: NonNullable<Signable['trust']> }) {
  const translate = useTranslate();
  const cas = trust.cas.map((n) => /CN=([^,]+)/.exec(n)?.[1] ?? n).join('; ');
  const main = !trust.cas.length
    ? translate('admin.sign.trust_none')
    : trust.test
      ? translate('admin.sign.trust_test', { cas })
      : translate('admin.sign.trust_cas', { cas });
  return (
    <Alert
      severity={!trust.cas.length && !trust.eimzoServer ? 'error' : trust.test ? 'warning' : 'info'}
      sx={{ mt: 2 }}
      data-testid="sign-trust"
    >
      <Typography variant="body2">{main}</Typography>
      <Typography variant="body2">{translate(trust.eimzoServer ? 'admin.sign.trust_eimzo' : 'admin.sign.trust_no_eimzo')}</Typography>
      <Typography variant="body2">{translate('admin.sign.trust_time')}</Typography>
    </Alert>
  );
}

type Provider = 'eimzo' | 'pkcs12';

const failureKey = (err: unknown) => (err instanceof ESignFailure ? err.key : 'esign.data_failed');

/** The caption of a key of the signed document: its own, else the field's of the same name, else the key. */
function keyCaption(key: string, translate: (k: string) => string): string {
  for (const k of [`admin.sign.key.${key}`, `fields.${key}`]) if (i18n.exists(k)) return translate(k);
  return key;
}

function valueText(key: string, v: unknown, translate: (k: string) => string): string {
  if (v === null || v === undefined) return '—';
  const s = String(v);
  if (i18n.exists(`enums.${key}.${s}`)) return translate(`enums.${key}.${s}`);
  if (/^-?\d+\.\d{2}$/.test(s)) return formatNumber(s, 2);
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return formatDate(s);
  return s;
}

/** The document being signed, readably: its values by caption, its lists as tables. */
export function DocumentView({ doc }: { doc: Record<string, unknown> }) {
  const translate = useTranslate();
  const scalars = Object.entries(doc).filter(([, v]) => !Array.isArray(v) && (v === null || typeof v !== 'object'));
  const lists = Object.entries(doc).filter(([, v]) => Array.isArray(v)) as [string, Record<string, unknown>[]][];
  return (
    <Box data-testid="sign-document">
      <Table size="small" sx={{ mb: 1 }}>
        <TableBody>
          {scalars.map(([k, v]) => (
            <TableRow key={k}>
              <TableCell sx={{ color: 'text.secondary', width: '40%' }}>{keyCaption(k, translate)}</TableCell>
              <TableCell sx={{ fontWeight: 500 }}>{valueText(k, v, translate)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {lists.map(([k, rows]) => {
        const cols = [...new Set(rows.flatMap((r) => Object.keys(r ?? {})))];
        return (
          <Box key={k} sx={{ mb: 1 }}>
            <Typography variant="subtitle2" sx={{ mt: 1 }}>
              {keyCaption(k, translate)}
            </Typography>
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small">
                <TableHead>
                  <TableRow>
                    {cols.map((c) => (
                      <TableCell key={c}>{keyCaption(c, translate)}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((r, i) => (
                    <TableRow key={i}>
                      {cols.map((c) => (
                        <TableCell key={c}>{valueText(c, r?.[c], translate)}</TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

function CertificateCard({ c }: { c: CertificateInfo }) {
  const translate = useTranslate();
  const rows: [string, string | undefined][] = [
    ['admin.sign.cert.owner', c.commonName],
    ['admin.sign.cert.organisation', c.organisation],
    ['admin.sign.cert.inn', c.inn ?? c.pinfl],
    ['admin.sign.cert.serial', c.serialNumber],
    ['admin.sign.cert.valid', c.validFrom || c.validTo ? `${c.validFrom ?? ''} — ${c.validTo ?? ''}` : undefined],
  ];
  return (
    <Table size="small" data-testid="sign-certificate">
      <TableBody>
        {rows
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <TableRow key={k}>
              <TableCell sx={{ color: 'text.secondary', width: '40%' }}>{translate(k)}</TableCell>
              <TableCell>{v}</TableCell>
            </TableRow>
          ))}
      </TableBody>
    </Table>
  );
}

/** A provider's failure: the spec's message; "cannot connect" also says the program may be missing or outdated. */
function Failure({ keyName, onRetry }: { keyName: string; onRetry?: () => void }) {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      data-testid="sign-error"
      action={
        onRetry ? (
          <MuiButton color="inherit" size="small" startIcon={<RefreshIcon />} onClick={onRetry}>
            {translate('admin.sign.retry')}
          </MuiButton>
        ) : undefined
      }
    >
      <AlertTitle>{translate(keyName)}</AlertTitle>
      {keyName === 'esign.cannot_connect' && translate('esign.program_missing')}
      {keyName === 'esign.program_missing' && translate('admin.sign.eimzo_install')}
    </Alert>
  );
}

/** E-IMZO: connects to the local program, lists its keys, loads the chosen one. */
function EimzoPanel({ onKey }: { onKey: (k: SigningKey | null, c?: CertificateInfo) => void }) {
  const translate = useTranslate();
  const [state, setState] = useState<{ phase: 'connecting' | 'keys' | 'error'; keys?: EimzoKey[]; error?: string }>({
    phase: 'connecting',
  });
  const [chosen, setChosen] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ phase: 'connecting' });
    onKey(null);
    eimzoKeys()
      .then((keys) => {
        if (live) setState({ phase: 'keys', keys });
      })
      .catch((err) => {
        if (live) setState({ phase: 'error', error: failureKey(err) });
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the keys are read again on a new attempt only; onKey is the parent's callback
  }, [attempt]);

  const choose = async (i: number) => {
    const k = state.keys![i];
    setChosen(i);
    setLoading(true);
    try {
      onKey(await eimzoSigningKey(k), k.certificate);
    } catch (err) {
      setState((s) => ({ ...s, error: failureKey(err) }));
      onKey(null);
    } finally {
      setLoading(false);
    }
  };

  if (state.phase === 'connecting') {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 2 }} data-testid="sign-connecting">
        <CircularProgress size={18} aria-label={translate('admin.sign.connecting')} />
        <Typography>{translate('admin.sign.connecting')}</Typography>
      </Box>
    );
  }
  if (state.phase === 'error') return <Failure keyName={state.error!} onRetry={() => setAttempt((a) => a + 1)} />;
  if (!state.keys?.length) return <Alert severity="warning">{translate('esign.certificate_not_found')}</Alert>;
  return (
    <>
      {state.error && <Failure keyName={state.error} />}
      <List dense>
        {state.keys.map((k, i) => (
          <ListItemButton key={`${k.path}/${k.name}`} selected={chosen === i} onClick={() => void choose(i)} disabled={loading}>
            <ListItemIcon>
              <Radio checked={chosen === i} size="small" />
            </ListItemIcon>
            <ListItemText
              primary={`${k.certificate.commonName}${k.certificate.organisation ? ` — ${k.certificate.organisation}` : ''}`}
              secondary={[
                k.certificate.inn && `${translate('admin.sign.cert.inn')}: ${k.certificate.inn}`,
                k.certificate.validTo && `${translate('admin.sign.cert.valid_to')}: ${k.certificate.validTo}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            />
          </ListItemButton>
        ))}
      </List>
    </>
  );
}

/** A PKCS#12 key file: chosen, opened with its password in the browser. */
function KeyFilePanel({ onKey }: { onKey: (k: SigningKey | null, c?: CertificateInfo) => void }) {
  const translate = useTranslate();
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [cert, setCert] = useState<CertificateInfo | null>(null);
  const picker = useRef<HTMLInputElement>(null);

  const open = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const key = await openKeyFile(await file.arrayBuffer(), password);
      setCert(key.certificate);
      onKey(key, key.certificate);
    } catch (err) {
      setCert(null);
      onKey(null);
      setError(failureKey(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, py: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <MuiButton variant="outlined" startIcon={<KeyIcon />} onClick={() => picker.current?.click()} data-testid="sign-pfx-choose">
          {translate('admin.sign.pfx_choose')}
        </MuiButton>
        <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'}>
          {file?.name ?? translate('admin.sign.pfx_none')}
        </Typography>
        <input
          ref={picker}
          type="file"
          hidden
          accept=".pfx,.p12,application/x-pkcs12"
          data-testid="sign-pfx-file"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setCert(null);
            setError(null);
            onKey(null);
          }}
        />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <TextField
          type="password"
          size="small"
          label={translate('admin.sign.pfx_password')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void open();
            }
          }}
          autoComplete="off"
          slotProps={{ htmlInput: { 'data-testid': 'sign-pfx-password' } }}
        />
        <MuiButton
          variant="outlined"
          onClick={() => void open()}
          disabled={!file || busy}
          data-testid="sign-pfx-open"
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
        >
          {translate('admin.sign.pfx_open')}
        </MuiButton>
      </Box>
      {error && <Failure keyName={error} />}
      {cert && <CertificateCard c={cert} />}
    </Box>
  );
}

/**
 * Signing a document before its workflow action (a report's "send"): the document as the server
 * will check it (`GET path/:id/signable`), a signature made by one of two providers — the E-IMZO
 * program or a PKCS#12 key file — over its canonical content, sent as `signature`. Where the
 * action names one (`skip`), "save without signature" runs that other action instead: it saves the
 * document unsigned where it is and sends nothing. The server verifies the signature; its refusal
 * (expired certificate, another INN…) shows here.
 */
export function SignDialog({
  entity,
  action,
  record,
  open,
  onClose,
  onDone,
}: {
  entity: EntityMeta;
  action: WorkflowActionMeta;
  record: RaRecord;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const run = useRunAction(entity);
  const [provider, setProvider] = useState<Provider>('eimzo');
  const [key, setKey] = useState<SigningKey | null>(null);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const { data, error, loading } = useFetch<Signable>(open ? `${entity.path}/${record.id}/signable` : null, record.version);

  useEffect(() => {
    if (!open) {
      setKey(null);
      setServerError(null);
    }
  }, [open]);

  const skip = entity.workflow?.actions.find((a) => a.name === action.skip && a.allowed);

  const send = async (values: Record<string, unknown>, which: WorkflowActionMeta = action) => {
    setBusy(true);
    setServerError(null);
    try {
      const { ok, errors } = await run(which, { kind: 'one', record }, values);
      if (ok) {
        // saved without signature: saved, not sent — say what is still to do
        if (which !== action)
          notify(translate('admin.sign.saved_unsigned', { send: translate(action.label) }), {
            type: 'warning',
            autoHideDuration: 15000,
          });
        onDone();
      } else {
        const field = typeof errors?.signature === 'string' ? errors.signature : undefined;
        setServerError(field ?? (errors?.root as { serverError?: string } | undefined)?.serverError ?? null);
      }
    } finally {
      setBusy(false);
    }
  };

  const signAndSend = async () => {
    if (!key || !data) return;
    setBusy(true);
    try {
      const signature = await key.sign(fromBase64(data.content));
      await send({ signature });
    } catch (err) {
      setServerError(translate(failureKey(err)));
      setBusy(false);
    }
  };

  let body: ReactNode;
  if (loading && !data)
    body = (
      <Box sx={{ py: 3, textAlign: 'center' }}>
        <CircularProgress />
      </Box>
    );
  else if (error) body = <Alert severity="error">{errorMessage(error)}</Alert>;
  else if (data) body = <DocumentView doc={data.document} />;

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} fullWidth maxWidth="md" data-testid="sign-dialog">
      <DialogTitle>
        {translate(action.label)} — {translate('admin.sign.title')}
      </DialogTitle>
      <DialogContent dividers>
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          {translate('admin.sign.document')}
        </Typography>
        {body}
        {data?.trust && <TrustNote trust={data.trust} />}
        <Tabs
          value={provider}
          onChange={(_e, v: Provider) => {
            setProvider(v);
            setKey(null);
          }}
          sx={{ mt: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          <Tab value="eimzo" label={translate('admin.sign.provider_eimzo')} data-testid="sign-provider-eimzo" />
          <Tab value="pkcs12" label={translate('admin.sign.provider_pkcs12')} data-testid="sign-provider-pkcs12" />
        </Tabs>
        <Box sx={{ pt: 1 }} data-testid={`sign-panel-${provider}`}>
          {open && provider === 'eimzo' && <EimzoPanel onKey={(k) => setKey(k)} />}
          {open && provider === 'pkcs12' && <KeyFilePanel onKey={(k) => setKey(k)} />}
        </Box>
        {serverError && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="sign-server-error">
            {serverError}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <MuiButton onClick={onClose} disabled={busy}>
          {translate('ra.action.cancel')}
        </MuiButton>
        {skip && (
          <MuiButton
            onClick={() => void send({}, skip)}
            disabled={busy || !data}
            data-testid="sign-skip"
            title={translate('admin.sign.skip_hint')}
          >
            {translate(skip.label)}
          </MuiButton>
        )}
        <MuiButton
          variant="contained"
          onClick={() => void signAndSend()}
          disabled={busy || !key || !data}
          data-testid="sign-submit"
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
        >
          {translate('admin.sign.submit')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}
