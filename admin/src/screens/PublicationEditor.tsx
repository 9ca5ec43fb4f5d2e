import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, Stack, Tab, Tabs, Typography } from '@mui/material';
import SaveIcon from '@mui/icons-material/Save';
import PublishIcon from '@mui/icons-material/Publish';
import UnpublishedIcon from '@mui/icons-material/Unpublished';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Title, useNotify, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { requestJson } from '../api/http';
import { errorMessage } from '../api/useFetch';
import { useLang } from '../generic/useLang';
import { useMeta } from '../meta/store';

/** TipTap: its own chunk, as in the generic form. */
const RichTextEditor = lazy(() => import('../generic/RichTextInput').then((m) => ({ default: m.RichTextEditor })));

type Lang3 = 'uz' | 'uk' | 'ru';
type Text3 = Partial<Record<Lang3, string | null>>;
interface Publication {
  id: number;
  version: number;
  title: Text3;
  body: Text3 | null;
  status: 'draft' | 'published';
  is_published: boolean;
  image: number | null;
}

const NEWS = '/api/notification/publications';
const LANGS: Lang3[] = ['uz', 'uk', 'ru'];

/**
 * `pubs-edit/:id` (hidden): a news item's text in the rich-text editor, a tab a language, saved as
 * the item's `body` (the server keeps it to its allow-list), and published or withdrawn by the
 * workflow's actions — the same write path as the item's form. Title, summary, type, date and
 * image stay on the generic form.
 */
export function PublicationEditor() {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const notify = useNotify();
  const lang = useLang();
  const model = useMeta();
  const [row, setRow] = useState<Publication>();
  const [body, setBody] = useState<Record<Lang3, string>>({ uz: '', uk: '', ru: '' });
  const [tab, setTab] = useState<Lang3>('uz');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = (r: Publication) => {
    setRow(r);
    setBody({ uz: r.body?.uz ?? '', uk: r.body?.uk ?? '', ru: r.body?.ru ?? '' });
  };
  useEffect(() => {
    if (!/^\d+$/.test(id)) return;
    requestJson<Publication>(`${NEWS}/${id}`)
      .then(load)
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [id]);

  const save = async (): Promise<Publication | undefined> => {
    if (!row) return undefined;
    setBusy(true);
    try {
      const saved = await requestJson<Publication>(`${NEWS}/${row.id}`, { method: 'PUT', body: { body, version: row.version } });
      load(saved);
      notify('admin.pubs.saved', { type: 'success' });
      return saved;
    } catch (e) {
      notify(errorMessage(e), { type: 'error' });
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  const move = async (action: 'publish' | 'unpublish') => {
    const saved = await save();
    if (!saved) return;
    setBusy(true);
    try {
      load(await requestJson<Publication>(`${NEWS}/${saved.id}/actions/${action}`, { method: 'POST', body: {} }));
      notify(`admin.pubs.${action}ed`, { type: 'success' });
    } catch (e) {
      notify(errorMessage(e), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  if (error)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {error}
      </Alert>
    );
  if (!row)
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={translate('admin.report.loading')} />
      </Box>
    );
  const title = row.title[lang] || row.title.uz || `#${row.id}`;
  const resource = model.resourceOf('publications');
  const showPath = resource ? `/${resource}/${row.id}/show` : '/';
  const published = row.status === 'published';
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="pubs-editor">
      <Title title={`${translate('menu.pubs_edit')} — ${title}`} />
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Button component={Link} to={showPath} startIcon={<ArrowBackIcon />}>
          {translate('admin.action.back')}
        </Button>
        <Typography variant="h6" component="h1" sx={{ flex: 1, minWidth: 200 }}>
          {title}
        </Typography>
        <Chip
          label={translate(`enums.status.${row.status}`)}
          color={published ? 'success' : 'default'}
          size="small"
          data-testid="pubs-status"
        />
        <Button variant="outlined" startIcon={<SaveIcon />} onClick={save} disabled={busy} data-testid="pubs-save">
          {translate('ra.action.save')}
        </Button>
        {published ? (
          <Button
            variant="contained"
            color="warning"
            startIcon={<UnpublishedIcon />}
            onClick={() => move('unpublish')}
            disabled={busy}
            data-testid="pubs-unpublish"
          >
            {translate('actions.unpublish')}
          </Button>
        ) : (
          <Button
            variant="contained"
            startIcon={<PublishIcon />}
            onClick={() => move('publish')}
            disabled={busy}
            data-testid="pubs-publish"
          >
            {translate('actions.publish')}
          </Button>
        )}
      </Stack>
      <Tabs value={tab} onChange={(_, v: Lang3) => setTab(v)} aria-label={translate('fields.body')} sx={{ mb: 1 }}>
        {LANGS.map((l) => (
          <Tab key={l} value={l} label={translate(`admin.form.lang_${l}`)} data-testid={`pubs-tab-${l}`} />
        ))}
      </Tabs>
      <Suspense fallback={<CircularProgress />}>
        {LANGS.map((l) => (
          <Box key={l} hidden={tab !== l}>
            <RichTextEditor
              value={body[l]}
              onChange={(html) => setBody((b) => ({ ...b, [l]: html }))}
              label={`${translate('fields.body')} (${translate(`admin.form.lang_${l}`)})`}
              testId={`pubs-body-${l}`}
              minHeight={360}
            />
          </Box>
        ))}
      </Suspense>
    </Box>
  );
}
