import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import SearchIcon from '@mui/icons-material/Search';
import { HttpError, Title, useTranslate } from 'react-admin';
import { requestJson } from '../api/http';
import { saveBlob } from '../api/files';
import { errorMessage } from '../api/useFetch';
import { useMeta } from '../meta/store';

/**
 * A person's data (`#/admin/personal-data`, docs/personal-data.md "The person's screen"): the
 * administrator types a PINFL or a passport, sees every record holding it (`POST
 * /api/admin/personal-data/person-export`: one access record an entity, kind `person`), downloads
 * that same answer as the person's export (no second read), and anonymises the person (`POST
 * …/anonymise`) after a confirmation that names them and says what happens; a refusal (409: a
 * record the law still keeps) or any other error is the server's own text, in the language shown.
 */
type Kind = 'pinfl' | 'passport';
interface Held {
  entity: string;
  caption: string;
  kept: boolean;
  rows: Record<string, unknown>[];
}
interface Export {
  pinfl?: string;
  passport?: string;
  records: Held[];
}
interface Anonymised {
  anonymised: { entity: string; ids: number[] }[];
  kept: { entity: string; ids: number[] }[];
}

const PATTERN: Record<Kind, RegExp> = { pinfl: /^\d{14}$/, passport: /^[A-Z]{2}\d{7}$/ };

export function PersonData() {
  const translate = useTranslate();
  const model = useMeta();
  const [kind, setKind] = useState<Kind>('pinfl');
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<{ kind: Kind; value: string; data: Export } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  // the identifier typed again before the irreversible anonymisation (docs/decisions/0066)
  const [typed, setTyped] = useState('');
  const [done, setDone] = useState<Anonymised | null>(null);

  const normalised = () => (kind === 'pinfl' ? value.replace(/\D/g, '') : value.replace(/\s/g, '').toUpperCase());
  const captionOf = (entity: string) => found?.data.records.find((r) => r.entity === entity)?.caption ?? entity;

  const search = async () => {
    const v = normalised();
    if (!PATTERN[kind].test(v)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setBusy(true);
    setError(null);
    setDone(null);
    setFound(null);
    try {
      const data = await requestJson<Export>('/api/admin/personal-data/person-export', { method: 'POST', body: { [kind]: v } });
      setFound({ kind, value: v, data });
    } catch (err) {
      setError(translate(errorMessage(err), { _: errorMessage(err) }));
    } finally {
      setBusy(false);
    }
  };

  /** The person's name as the records hold it (a field marked personal `name`), else the identifier. */
  const nameOf = (f: NonNullable<typeof found>): string => {
    for (const h of f.data.records) {
      const e = model.byName.get(h.entity);
      if (!e) continue;
      for (const row of h.rows) {
        for (const field of e.fields) {
          if (field.personal === 'name' && typeof row[field.name] === 'string' && row[field.name]) return String(row[field.name]);
          if (field.type === 'children' && Array.isArray(row[field.name])) {
            for (const c of row[field.name] as Record<string, unknown>[])
              for (const sub of field.fields ?? [])
                if (sub.personal === 'name' && typeof c[sub.name] === 'string' && c[sub.name]) return String(c[sub.name]);
          }
        }
      }
    }
    return '';
  };

  const download = () => {
    if (!found) return;
    const blob = new Blob([JSON.stringify(found.data, null, 2)], { type: 'application/json' });
    saveBlob(blob, `personal-data-${found.kind}-${found.value}.json`);
  };

  const anonymise = async () => {
    if (!found) return;
    setBusy(true);
    setError(null);
    try {
      setDone(await requestJson<Anonymised>('/api/admin/personal-data/anonymise', { method: 'POST', body: { [found.kind]: found.value } }));
    } catch (err) {
      const m = errorMessage(err);
      setError(err instanceof HttpError && err.status === 409 ? m : translate(m, { _: m }));
    } finally {
      setBusy(false);
      setConfirm(false);
    }
  };

  const name = found ? nameOf(found) : '';
  const who = found ? `${name ? `${name}, ` : ''}${translate(`admin.person_data.${found.kind}`)} ${found.value}` : '';
  const erased = found?.data.records.filter((r) => !r.kept) ?? [];
  const kept = found?.data.records.filter((r) => r.kept) ?? [];
  const count = (hs: Held[]) => hs.reduce((n, h) => n + h.rows.length, 0);

  return (
    <Card sx={{ mt: 1 }} data-testid="page-screen-person-data">
      <Title title={translate('admin.person_data.title')} />
      <CardContent>
        <Typography variant="h6" component="h1" gutterBottom>
          {translate('admin.person_data.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
          {translate('admin.person_data.intro')}
        </Typography>
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            void search();
          }}
        >
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ xs: 'stretch', sm: 'flex-start' }}>
            <TextField
              select
              size="small"
              label={translate('admin.person_data.kind')}
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as Kind);
                setInvalid(false);
              }}
              sx={{ width: { xs: '100%', sm: 180 }, flexShrink: 0 }}
              slotProps={{ htmlInput: { 'data-testid': 'person-kind' } }}
            >
              <MenuItem value="pinfl">{translate('admin.person_data.pinfl')}</MenuItem>
              <MenuItem value="passport">{translate('admin.person_data.passport')}</MenuItem>
            </TextField>
            <TextField
              size="small"
              label={translate(`admin.person_data.${kind}`)}
              value={value}
              onChange={(e) => {
                setValue(e.target.value.slice(0, 20));
                setInvalid(false);
              }}
              error={invalid}
              helperText={translate(invalid ? `admin.person_data.${kind}_invalid` : `admin.person_data.${kind}_hint`)}
              sx={{ width: { xs: '100%', sm: 300 }, flexShrink: 0 }}
              slotProps={{ htmlInput: { 'data-testid': 'person-value', autoComplete: 'off' } }}
            />
            <Button
              type="submit"
              variant="contained"
              disabled={busy}
              startIcon={busy ? <CircularProgress size={16} /> : <SearchIcon />}
              data-testid="person-search"
              sx={{ height: 40, flexShrink: 0, whiteSpace: 'nowrap', alignSelf: { xs: 'flex-start', sm: 'auto' } }}
            >
              {translate('admin.person_data.search')}
            </Button>
          </Stack>
        </Box>

        {error && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="person-error">
            {error}
          </Alert>
        )}

        {found && !found.data.records.length && (
          <Alert severity="info" sx={{ mt: 2 }} data-testid="person-none">
            {translate('admin.person_data.none', { who })}
          </Alert>
        )}

        {found && found.data.records.length > 0 && (
          <Box sx={{ mt: 2 }} data-testid="person-found">
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
              {who}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {translate('admin.person_data.read_recorded')}
            </Typography>
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={translate('admin.person_data.held')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('admin.person_data.entity')}</TableCell>
                    <TableCell align="right">{translate('admin.person_data.records')}</TableCell>
                    <TableCell>{translate('admin.person_data.ids')}</TableCell>
                    <TableCell>{translate('admin.person_data.on_anonymise')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {found.data.records.map((h) => (
                    <TableRow key={h.entity} data-testid={`person-held-${h.entity}`}>
                      <TableCell>{h.caption}</TableCell>
                      <TableCell align="right">{h.rows.length}</TableCell>
                      <TableCell>{h.rows.map((r) => `#${String(r.id)}`).join(', ')}</TableCell>
                      <TableCell>{translate(h.kept ? 'admin.person_data.kept' : 'admin.person_data.erased')}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2 }}>
              <Button variant="outlined" startIcon={<DownloadIcon />} onClick={download} data-testid="person-download">
                {translate('admin.person_data.download')}
              </Button>
              <Button
                variant="outlined"
                color="error"
                startIcon={<PersonOffIcon />}
                disabled={busy || !erased.length || !!done}
                onClick={() => {
                  setTyped('');
                  setConfirm(true);
                }}
                data-testid="person-anonymise"
              >
                {translate('admin.person_data.anonymise')}
              </Button>
            </Stack>
          </Box>
        )}

        {done && (
          <Alert severity="success" sx={{ mt: 2 }} data-testid="person-done">
            {translate('admin.person_data.done', {
              anonymised: done.anonymised.map((a) => `${captionOf(a.entity)} (${a.ids.length})`).join(', ') || '—',
              kept: done.kept.map((a) => `${captionOf(a.entity)} (${a.ids.length})`).join(', ') || '—',
            })}
          </Alert>
        )}

        <Dialog open={confirm} onClose={() => !busy && setConfirm(false)} aria-labelledby="person-confirm-title">
          <DialogTitle id="person-confirm-title">{translate('admin.person_data.confirm_title', { who })}</DialogTitle>
          <DialogContent>
            <DialogContentText component="div">
              <p>
                {translate('admin.person_data.confirm_erased', {
                  n: count(erased),
                  list: erased.map((h) => `${h.caption} (${h.rows.length})`).join(', '),
                })}
              </p>
              {kept.length > 0 && (
                <p>
                  {translate('admin.person_data.confirm_kept', { list: kept.map((h) => `${h.caption} (${h.rows.length})`).join(', ') })}
                </p>
              )}
              <p>{translate('admin.person_data.confirm_trail')}</p>
              <p>
                <strong>{translate('admin.person_data.confirm_final')}</strong>
              </p>
            </DialogContentText>
            {/* the prompt above the box, whole on a phone (a floating label would be cut) */}
            <Typography component="label" htmlFor="person-confirm-typed" variant="body2" sx={{ display: 'block', mt: 1, mb: 0.5 }}>
              {translate(`admin.person_data.confirm_type_${found?.kind ?? 'pinfl'}`)}
            </Typography>
            <TextField
              fullWidth
              size="small"
              id="person-confirm-typed"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'person-confirm-typed', autoComplete: 'off' } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setConfirm(false)} disabled={busy} autoFocus>
              {translate('ra.action.cancel')}
            </Button>
            <Button
              color="error"
              variant="contained"
              onClick={() => void anonymise()}
              disabled={busy || typed.replace(/\s/g, '').toUpperCase() !== found?.value}
              data-testid="person-anonymise-confirm"
            >
              {translate('admin.person_data.anonymise_confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      </CardContent>
    </Card>
  );
}
