import { useState } from 'react';
import {
  Alert,
  Box,
  Button as MuiButton,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  List,
  ListItem,
  ListItemText,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DescriptionIcon from '@mui/icons-material/Description';
import { Button, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { Link, useNavigate } from 'react-router-dom';
import { requestJson } from '../api/http';
import { errorMessage, useFetch } from '../api/useFetch';
import { useLang } from '../generic/useLang';
import { formatDateTime } from '../generic/format';
import { DateValueInput } from '../generic/DateValueInput';
import type { EntityMeta } from '../meta/types';
import { downloadIssuedPdf } from './download';

type Text3 = { uz?: string; uk?: string; ru?: string };
interface TemplateInfo {
  id: number;
  name: string;
  language: string;
  fields: { code: string; name: Text3; required: boolean; type_code?: string }[];
}
export interface IssuedInfo {
  id: number;
  title: string;
  language: string;
  created_at: string;
  issued_by: string | null;
  pdf: number | null;
}
interface Documents {
  type: { code: string; name: Text3 } | null;
  templates: TemplateInfo[];
  issued: IssuedInfo[];
}

/**
 * "Print document" on the page of a record whose entity prints documents (`documents` in its
 * metadata): choose a template of the type, fill the fields it asks for, issue — the server fills
 * it from the record and keeps the page and the PDF — then open the printable page or download
 * the PDF. The documents issued before are listed with the same two links.
 */
export function PrintDocumentButton({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const [open, setOpen] = useState(false);
  const translate = useTranslate();
  if (!entity.documents || !record) return null;
  return (
    <>
      <Button label={translate('admin.documents.print')} onClick={() => setOpen(true)} data-testid="print-document">
        <DescriptionIcon />
      </Button>
      {open && <PrintDocumentDialog entity={entity} id={record.id as number} onClose={() => setOpen(false)} />}
    </>
  );
}

function PrintDocumentDialog({ entity, id, onClose }: { entity: EntityMeta; id: number; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const lang = useLang();
  const url = `${entity.path}/${id}/documents`;
  const docs = useFetch<Documents>(url);
  const [chosen, setChosen] = useState<number>();
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const name = (t: Text3) => t[lang] || t.uz || t.ru || '';
  const templates = docs.data?.templates ?? [];
  // the template in the language shown first, else the first
  const current = templates.find((t) => t.id === chosen) ?? templates.find((t) => t.language === lang) ?? templates[0];

  const issue = async () => {
    if (!current) return;
    setBusy(true);
    setErrors({});
    try {
      const doc = await requestJson<{ id: number }>(url, { method: 'POST', body: { template_id: current.id, values } });
      notify('admin.documents.issued_one', { type: 'success' });
      navigate(`/print/document/${doc.id}`);
    } catch (e) {
      const body = (e as { body?: { errors?: Record<string, unknown> } }).body;
      const fieldErrors = body?.errors ?? {};
      setErrors(
        Object.fromEntries(
          Object.entries(fieldErrors).map(([k, v]) => [k, typeof v === 'string' ? v : translate('ra.validation.required')]),
        ),
      );
      notify(errorMessage(e), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="print-document-title" data-testid="print-document-dialog">
      <DialogTitle id="print-document-title">
        {translate('admin.documents.print')}
        {docs.data?.type ? ` — ${name(docs.data.type.name)}` : ''}
      </DialogTitle>
      <DialogContent dividers>
        {docs.loading && (
          <Box role="status" sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
            <CircularProgress aria-label={translate('admin.report.loading')} />
          </Box>
        )}
        {docs.error && <Alert severity="error">{errorMessage(docs.error)}</Alert>}
        {docs.data && !templates.length && (
          <Alert severity="info" data-testid="no-templates">
            {translate('admin.documents.no_templates')}
          </Alert>
        )}
        {current && (
          <Stack spacing={2}>
            <FormControl>
              <FormLabel id="template-choice">{translate('admin.documents.template')}</FormLabel>
              <RadioGroup
                aria-labelledby="template-choice"
                value={current.id}
                onChange={(e) => {
                  setChosen(Number(e.target.value));
                  setErrors({});
                }}
              >
                {templates.map((t) => (
                  <FormControlLabel
                    key={t.id}
                    value={t.id}
                    control={<Radio />}
                    label={`${t.name} (${translate(`enums.language.${t.language}`)})`}
                    data-testid={`template-${t.id}`}
                  />
                ))}
              </RadioGroup>
            </FormControl>
            {current.fields.length > 0 && (
              <Stack spacing={1.5}>
                <Typography variant="subtitle2">{translate('admin.documents.own_fields')}</Typography>
                {current.fields.map((f) =>
                  f.type_code === 'DATE' ? (
                    <DateValueInput
                      key={f.code}
                      label={name(f.name)}
                      required={f.required}
                      value={values[f.code] ?? null}
                      onChange={(d) => setValues((v) => ({ ...v, [f.code]: d ?? '' }))}
                      error={!!errors[f.code]}
                      helperText={errors[f.code]}
                      partial="null"
                      testId={`doc-field-${f.code}`}
                    />
                  ) : (
                    <TextField
                      key={f.code}
                      label={name(f.name)}
                      required={f.required}
                      type={f.type_code === 'NUMBER' ? 'number' : 'text'}
                      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `doc-field-${f.code}` } }}
                      value={values[f.code] ?? ''}
                      onChange={(e) => setValues((v) => ({ ...v, [f.code]: e.target.value }))}
                      error={!!errors[f.code]}
                      helperText={errors[f.code]}
                      size="small"
                    />
                  ),
                )}
              </Stack>
            )}
          </Stack>
        )}
        {docs.data && (
          <Box sx={{ mt: 3 }}>
            <Typography variant="subtitle2">{translate('admin.documents.issued')}</Typography>
            {!docs.data.issued.length ? (
              <Typography variant="body2" color="text.secondary" data-testid="no-issued">
                {translate('admin.documents.none_issued')}
              </Typography>
            ) : (
              <IssuedList issued={docs.data.issued} />
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>{translate('ra.action.close')}</MuiButton>
        <MuiButton
          variant="contained"
          onClick={issue}
          disabled={!current || busy}
          startIcon={<DescriptionIcon />}
          data-testid="issue-document"
        >
          {translate('admin.documents.issue')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

function IssuedList({ issued }: { issued: IssuedInfo[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  return (
    <List dense data-testid="issued-documents">
      {issued.map((d) => (
        <ListItem key={d.id} disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
          <ListItemText
            primary={d.title}
            secondary={`${formatDateTime(d.created_at)}${d.issued_by ? ` · ${d.issued_by}` : ''}`}
            sx={{ minWidth: 200 }}
          />
          <MuiButton size="small" component={Link} to={`/print/document/${d.id}`}>
            {translate('admin.documents.open')}
          </MuiButton>
          <MuiButton size="small" onClick={() => downloadIssuedPdf(d.id).catch((e: unknown) => notify(errorMessage(e), { type: 'error' }))}>
            PDF
          </MuiButton>
        </ListItem>
      ))}
    </List>
  );
}
