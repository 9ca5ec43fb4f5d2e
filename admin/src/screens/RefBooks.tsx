import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import AddIcon from '@mui/icons-material/Add';
import { HttpError, Title, useNotify, useTranslate } from 'react-admin';
import { requestJson, wireLang } from '../api/http';
import { errorMessage } from '../api/useFetch';
import { loadMeta, useMeta } from '../meta/store';
import { latinToCyrillic } from '../../../api/i18n/transliterate';

/**
 * The reference books screen (`#/admin/ref-books`, docs/reference-books.md): an administrator makes
 * or changes a book — its name, menu section, caption in uz / ru / Uzbek Cyrillic (transliterated
 * from uz while not written by hand) and its fields — and saves it; the server checks it with the
 * metadata files' schema and second pass and answers every problem beside its input. Once saved,
 * the metadata is loaded again so the menu, list and form are there without a reload.
 */
interface Caption3 {
  uz: string;
  ru: string;
  uk?: string;
}
interface FieldSpec {
  name: string;
  type: string;
  caption: Caption3;
  required?: boolean;
  unique?: boolean;
  maxLength?: number;
  ref?: string;
  values?: { value: string; caption: Caption3 }[];
}
interface Spec {
  name: string;
  section: string;
  caption: Caption3;
  fields: FieldSpec[];
}
interface BookRow {
  name: string;
  section: string;
  caption: string;
  path?: string;
  fields: number;
}

const TYPES = ['string', 'integer', 'decimal', 'money', 'date', 'boolean', 'enum', 'ref'];
const EMPTY: Spec = { name: '', section: 'ecofund-sprav', caption: { uz: '', ru: '', uk: '' }, fields: [] };

/** uz typed: uk follows it by transliteration unless someone wrote uk by hand. */
function withUz(c: Caption3, uz: string): Caption3 {
  const derived = !c.uk || c.uk === latinToCyrillic(c.uz);
  return { ...c, uz, uk: derived ? latinToCyrillic(uz) : c.uk };
}

function CaptionInputs({
  value,
  onChange,
  errors,
  prefix,
  testId,
}: {
  value: Caption3;
  onChange: (c: Caption3) => void;
  errors: Record<string, string>;
  prefix: string;
  testId: string;
}) {
  const translate = useTranslate();
  const err = (lang: string) => errors[`${prefix}.${lang}`] ?? (lang === 'uz' ? errors[prefix] : undefined);
  return (
    <Stack direction="row" spacing={1} sx={{ flex: 1 }}>
      <TextField
        size="small"
        label={translate('admin.ref_books.caption_uz')}
        value={value.uz}
        onChange={(e) => onChange(withUz(value, e.target.value))}
        error={!!err('uz')}
        helperText={err('uz')}
        slotProps={{ htmlInput: { 'data-testid': `${testId}-uz` } }}
      />
      <TextField
        size="small"
        label={translate('admin.ref_books.caption_ru')}
        value={value.ru}
        onChange={(e) => onChange({ ...value, ru: e.target.value })}
        error={!!err('ru')}
        helperText={err('ru')}
        slotProps={{ htmlInput: { 'data-testid': `${testId}-ru` } }}
      />
      <TextField
        size="small"
        label={translate('admin.ref_books.caption_uk')}
        value={value.uk ?? ''}
        onChange={(e) => onChange({ ...value, uk: e.target.value })}
        error={!!err('uk')}
        helperText={err('uk')}
        slotProps={{ htmlInput: { 'data-testid': `${testId}-uk` } }}
      />
    </Stack>
  );
}

export function RefBooks() {
  const translate = useTranslate();
  const notify = useNotify();
  const model = useMeta();
  const [books, setBooks] = useState<BookRow[]>([]);
  const [spec, setSpec] = useState<Spec | null>(null);
  const [isNew, setIsNew] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(async () => {
    setBooks(await requestJson<BookRow[]>('/api/admin/ref-books'));
  }, []);
  useEffect(() => {
    refresh().catch((err) => notify(errorMessage(err), { type: 'error' }));
  }, [refresh, notify]);

  const open = async (name: string) => {
    setErrors({});
    setIsNew(false);
    setSpec(await requestJson<Spec>(`/api/admin/ref-books/${name}`));
  };
  const setField = (i: number, f: Partial<FieldSpec>) =>
    setSpec((s) => s && { ...s, fields: s.fields.map((x, j) => (j === i ? { ...x, ...f } : x)) });

  const save = async () => {
    if (!spec) return;
    setBusy(true);
    try {
      await requestJson('/api/admin/ref-books', { method: 'POST', body: spec });
      setErrors({});
      setIsNew(false);
      // the book is live: its menu item, list and form come with the metadata
      await loadMeta(wireLang());
      await refresh();
      notify('admin.ref_books.saved', { type: 'success' });
    } catch (err) {
      const body = err instanceof HttpError ? (err.body as { errors?: Record<string, unknown> } | undefined) : undefined;
      setErrors(
        Object.fromEntries(Object.entries(body?.errors ?? {}).filter(([k, v]) => k !== 'root' && typeof v === 'string')) as Record<
          string,
          string
        >,
      );
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (name: string) => {
    try {
      await requestJson(`/api/admin/ref-books/${name}`, { method: 'DELETE' });
      setSpec(null);
      await loadMeta(wireLang());
      await refresh();
      notify('admin.ref_books.deleted', { type: 'success' });
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    }
  };

  const sections = model.meta.menu.map((s) => ({ id: s.route.slice(1), name: translate(s.caption, { _: s.route }) }));
  const entities = [...model.byName.values()]
    .filter((e) => e.kind === 'reference')
    .map((e) => ({ id: e.name, name: translate(e.caption, { _: e.name }) }));
  const fieldErr = (i: number, prop: string) => errors[`fields.${i}.${prop}`];
  // the server says each problem under the input it concerns (`name`, `fields.2.name`, `fields.0.caption.ru`), in the caller's language;
  // one no input shows is said below the fields, never lost
  const hasInput = (k: string): boolean => {
    if (/^(name|section|caption(\.(uz|ru|uk))?)$/.test(k)) return true;
    const m = /^fields\.(\d+)\.(name|type|ref|maxLength|values|caption(?:\.(?:uz|ru|uk))?)$/.exec(k);
    const f = m ? spec?.fields[Number(m[1])] : undefined;
    if (!m || !f) return false;
    return m[2] === 'ref' ? f.type === 'ref' : m[2] === 'maxLength' ? f.type === 'string' : m[2] === 'values' ? f.type === 'enum' : true;
  };
  const unshown = Object.entries(errors).filter(([k]) => !hasInput(k));

  return (
    <Box sx={{ p: 2 }} data-testid="page-screen-ref-books">
      <Title title={translate('admin.ref_books.title')} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="flex-start">
        <Card sx={{ minWidth: 260 }}>
          <CardContent>
            <Button
              startIcon={<AddIcon />}
              variant="contained"
              data-testid="ref-books-new"
              onClick={() => {
                setSpec({ ...EMPTY, fields: [] });
                setIsNew(true);
                setErrors({});
              }}
            >
              {translate('admin.ref_books.new')}
            </Button>
            {books.length ? (
              <List dense>
                {books.map((b) => (
                  <ListItemButton key={b.name} onClick={() => void open(b.name)} data-testid={`ref-book-${b.name}`}>
                    <ListItemText primary={b.caption} secondary={b.name} />
                  </ListItemButton>
                ))}
              </List>
            ) : (
              <Typography sx={{ mt: 2 }} color="text.secondary">
                {translate('admin.ref_books.empty')}
              </Typography>
            )}
          </CardContent>
        </Card>
        {spec && (
          <Card sx={{ flex: 1 }}>
            <CardContent>
              <Stack spacing={2}>
                <Stack direction="row" spacing={1}>
                  <TextField
                    size="small"
                    label={translate('admin.ref_books.name')}
                    value={spec.name}
                    disabled={!isNew}
                    onChange={(e) => setSpec({ ...spec, name: e.target.value })}
                    error={!!errors.name}
                    helperText={errors.name}
                    slotProps={{ htmlInput: { 'data-testid': 'book-name' } }}
                  />
                  <TextField
                    select
                    size="small"
                    sx={{ minWidth: 220 }}
                    label={translate('admin.ref_books.section')}
                    value={spec.section}
                    onChange={(e) => setSpec({ ...spec, section: e.target.value })}
                    error={!!errors.section}
                    helperText={errors.section}
                    slotProps={{ htmlInput: { 'data-testid': 'book-section' } }}
                  >
                    {sections.map((s) => (
                      <MenuItem key={s.id} value={s.id}>
                        {s.name}
                      </MenuItem>
                    ))}
                  </TextField>
                </Stack>
                <CaptionInputs
                  value={spec.caption}
                  onChange={(caption) => setSpec({ ...spec, caption })}
                  errors={errors}
                  prefix="caption"
                  testId="book-caption"
                />
                <Typography variant="subtitle1">{translate('admin.ref_books.fields')}</Typography>
                <Alert severity="info">{translate('admin.ref_books.fixed')}</Alert>
                {spec.fields.map((f, i) => (
                  <Box key={i} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }} data-testid={`book-field-${i}`}>
                    <Stack direction="row" spacing={1} alignItems="flex-start" flexWrap="wrap" useFlexGap>
                      <TextField
                        size="small"
                        label={translate('admin.ref_books.field_name')}
                        value={f.name}
                        onChange={(e) => setField(i, { name: e.target.value })}
                        error={!!fieldErr(i, 'name')}
                        helperText={fieldErr(i, 'name')}
                        slotProps={{ htmlInput: { 'data-testid': `field-${i}-name` } }}
                      />
                      <TextField
                        select
                        size="small"
                        sx={{ minWidth: 160 }}
                        label={translate('admin.ref_books.field_type')}
                        value={f.type}
                        onChange={(e) => setField(i, { type: e.target.value })}
                        error={!!fieldErr(i, 'type')}
                        helperText={fieldErr(i, 'type')}
                        slotProps={{ htmlInput: { 'data-testid': `field-${i}-type` } }}
                      >
                        {TYPES.map((t) => (
                          <MenuItem key={t} value={t}>
                            {translate(`admin.ref_books.types.${t}`)}
                          </MenuItem>
                        ))}
                      </TextField>
                      {f.type === 'ref' && (
                        <TextField
                          select
                          size="small"
                          sx={{ minWidth: 200 }}
                          label={translate('admin.ref_books.ref')}
                          value={f.ref ?? ''}
                          onChange={(e) => setField(i, { ref: e.target.value })}
                          error={!!fieldErr(i, 'ref')}
                          helperText={fieldErr(i, 'ref')}
                          slotProps={{ htmlInput: { 'data-testid': `field-${i}-ref` } }}
                        >
                          {entities.map((x) => (
                            <MenuItem key={x.id} value={x.id}>
                              {x.name}
                            </MenuItem>
                          ))}
                        </TextField>
                      )}
                      {f.type === 'string' && (
                        <TextField
                          size="small"
                          type="number"
                          sx={{ width: 110 }}
                          label={translate('admin.ref_books.max_length')}
                          value={f.maxLength ?? ''}
                          onChange={(e) => setField(i, { maxLength: e.target.value === '' ? undefined : Number(e.target.value) })}
                          error={!!fieldErr(i, 'maxLength')}
                          helperText={fieldErr(i, 'maxLength')}
                          slotProps={{ htmlInput: { 'data-testid': `field-${i}-maxLength` } }}
                        />
                      )}
                      <FormControlLabel
                        control={<Checkbox checked={!!f.required} onChange={(e) => setField(i, { required: e.target.checked })} />}
                        label={translate('admin.ref_books.required')}
                      />
                      <FormControlLabel
                        control={<Checkbox checked={!!f.unique} onChange={(e) => setField(i, { unique: e.target.checked })} />}
                        label={translate('admin.ref_books.unique')}
                      />
                      <IconButton
                        aria-label={translate('admin.ref_books.remove_field')}
                        onClick={() => setSpec({ ...spec, fields: spec.fields.filter((_, j) => j !== i) })}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </Stack>
                    <Box sx={{ mt: 1 }}>
                      <CaptionInputs
                        value={f.caption}
                        onChange={(caption) => setField(i, { caption })}
                        errors={errors}
                        prefix={`fields.${i}.caption`}
                        testId={`field-${i}-caption`}
                      />
                    </Box>
                    {f.type === 'enum' && (
                      <TextField
                        multiline
                        minRows={2}
                        fullWidth
                        size="small"
                        sx={{ mt: 1 }}
                        label={translate('admin.ref_books.values')}
                        value={(f.values ?? []).map((v) => `${v.value}|${v.caption.uz}|${v.caption.ru}`).join('\n')}
                        onChange={(e) =>
                          setField(i, {
                            values: e.target.value.split('\n').map((line) => {
                              const [value = '', uz = '', ru = ''] = line.split('|');
                              return { value: value.trim(), caption: { uz: uz.trim(), ru: ru.trim() } };
                            }),
                          })
                        }
                        error={!!fieldErr(i, 'values')}
                        helperText={fieldErr(i, 'values')}
                      />
                    )}
                  </Box>
                ))}
                <Box>
                  <Button
                    startIcon={<AddIcon />}
                    data-testid="book-add-field"
                    onClick={() =>
                      setSpec({ ...spec, fields: [...spec.fields, { name: '', type: 'string', caption: { uz: '', ru: '', uk: '' } }] })
                    }
                  >
                    {translate('admin.ref_books.add_field')}
                  </Button>
                </Box>
                {unshown.length > 0 && (
                  <Alert severity="error" data-testid="book-errors">
                    {unshown.map(([k, v]) => (
                      <div key={k}>{v}</div>
                    ))}
                  </Alert>
                )}
                <Stack direction="row" spacing={1}>
                  <Button variant="contained" disabled={busy} onClick={() => void save()} data-testid="book-save">
                    {translate('admin.ref_books.save')}
                  </Button>
                  {!isNew && (
                    <Button color="error" onClick={() => void remove(spec.name)} data-testid="book-delete">
                      {translate('admin.ref_books.delete')}
                    </Button>
                  )}
                </Stack>
              </Stack>
            </CardContent>
          </Card>
        )}
      </Stack>
    </Box>
  );
}
