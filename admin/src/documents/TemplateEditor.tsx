import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Divider,
  Stack,
  ToggleButton,
  Tooltip,
  Typography,
} from '@mui/material';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatUnderlinedIcon from '@mui/icons-material/FormatUnderlined';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import HorizontalRuleIcon from '@mui/icons-material/HorizontalRule';
import TitleIcon from '@mui/icons-material/Title';
import UndoIcon from '@mui/icons-material/Undo';
import RedoIcon from '@mui/icons-material/Redo';
import SaveIcon from '@mui/icons-material/Save';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Title, useNotify, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { requestJson } from '../api/http';
import { errorMessage, useFetch } from '../api/useFetch';
import { useLang } from '../generic/useLang';
import { useMeta } from '../meta/store';
import { TemplateField, type FieldAttrs } from './fieldNode';

type Text3 = { uz?: string; uk?: string; ru?: string };
interface TemplateRow {
  id: number;
  version: number;
  name: string;
  language: string;
  body: string | null;
  fields?: { code: string; name: Text3 }[];
  [k: string]: unknown;
}
interface ReservedType {
  code: string;
  name: Text3;
  is_active: boolean;
}

const TEMPLATES = '/api/ecoinspection-dictionaries/template-documents';
const RESERVED = `/api/ecoinspection-dictionaries/td-field-reserved-types?sort=${encodeURIComponent('["code","ASC"]')}&range=${encodeURIComponent('[0,99]')}&filter=${encodeURIComponent('{"is_active":true}')}`;

/** The template's markup with each placeholder's caption (`data-label`) set from its code. */
function withLabels(html: string, labels: Map<string, string>): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  doc.querySelectorAll('span[data-field]').forEach((el) => {
    const label = labels.get(el.getAttribute('data-field') ?? '');
    if (label) el.setAttribute('data-label', label);
  });
  return doc.body.innerHTML;
}

/** A formatting button of the toolbar: a toggle with its name for screen readers and a tooltip. */
function Mark({
  label,
  active,
  onClick,
  children,
  testId,
}: {
  label: string;
  active?: boolean;
  onClick: () => void;
  children: React.ReactNode;
  testId: string;
}) {
  return (
    <Tooltip title={label}>
      {/* a mouse press keeps the focus (and the caret) in the text: what is typed next takes the mark at once */}
      <ToggleButton
        value={testId}
        size="small"
        selected={!!active}
        aria-label={label}
        aria-pressed={!!active}
        onMouseDown={(e) => e.preventDefault()}
        onClick={onClick}
        data-testid={testId}
      >
        {children}
      </ToggleButton>
    </Tooltip>
  );
}

export function Toolbar({ editor }: { editor: Editor }) {
  const translate = useTranslate();
  const t = (k: string) => translate(`admin.editor.${k}`);
  const c = () => editor.chain().focus();
  // the marks at the caret, followed as the text changes (TipTap 3 re-renders nothing by itself):
  // a pressed button says so to a screen reader and to the eye
  const on = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      heading: e.isActive('heading', { level: 1 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
    }),
  });
  return (
    <Stack
      direction="row"
      role="toolbar"
      aria-label={t('toolbar')}
      sx={{ flexWrap: 'wrap', gap: 0.5, p: 1, borderBottom: 1, borderColor: 'divider' }}
    >
      <Mark label={t('bold')} testId="ed-bold" active={on.bold} onClick={() => c().toggleBold().run()}>
        <FormatBoldIcon fontSize="small" />
      </Mark>
      <Mark label={t('italic')} testId="ed-italic" active={on.italic} onClick={() => c().toggleItalic().run()}>
        <FormatItalicIcon fontSize="small" />
      </Mark>
      <Mark label={t('underline')} testId="ed-underline" active={on.underline} onClick={() => c().toggleUnderline().run()}>
        <FormatUnderlinedIcon fontSize="small" />
      </Mark>
      <Mark label={t('heading')} testId="ed-heading" active={on.heading} onClick={() => c().toggleHeading({ level: 1 }).run()}>
        <TitleIcon fontSize="small" />
      </Mark>
      <Mark label={t('bullet')} testId="ed-bullet" active={on.bullet} onClick={() => c().toggleBulletList().run()}>
        <FormatListBulletedIcon fontSize="small" />
      </Mark>
      <Mark label={t('ordered')} testId="ed-ordered" active={on.ordered} onClick={() => c().toggleOrderedList().run()}>
        <FormatListNumberedIcon fontSize="small" />
      </Mark>
      <Mark label={t('hr')} testId="ed-hr" onClick={() => c().setHorizontalRule().run()}>
        <HorizontalRuleIcon fontSize="small" />
      </Mark>
      <Mark label={t('undo')} testId="ed-undo" onClick={() => c().undo().run()}>
        <UndoIcon fontSize="small" />
      </Mark>
      <Mark label={t('redo')} testId="ed-redo" onClick={() => c().redo().run()}>
        <RedoIcon fontSize="small" />
      </Mark>
    </Stack>
  );
}

/** The placeholders to insert: buttons in the tab order, each putting its field at the cursor. */
function FieldList({
  title,
  fields,
  onInsert,
  testId,
}: {
  title: string;
  fields: FieldAttrs[];
  onInsert: (f: FieldAttrs) => void;
  testId: string;
}) {
  return (
    <Box component="section" aria-label={title} sx={{ mb: 2 }} data-testid={testId}>
      <Typography variant="subtitle2" color="primary" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
        {fields.map((f) => (
          <li key={`${f.kind}-${f.code}`}>
            <Chip
              component="button"
              clickable
              variant="outlined"
              color={f.kind === 'own' ? 'secondary' : 'primary'}
              label={f.label}
              title={f.code}
              onClick={() => onInsert(f)}
              data-testid={`insert-${f.code}`}
              sx={{ height: 'auto', py: 0.5, '& .MuiChip-label': { whiteSpace: 'normal' } }}
            />
          </li>
        ))}
      </Box>
    </Box>
  );
}

/**
 * `template-document-editor/:id`: a template's text in a rich-text editor (TipTap) with its fields
 * as placeholders to insert — the reserved ones a record fills, and the template's own the printer
 * types. Saved as the template's `body` (the HTML the server fills, docs/template-documents.md).
 */
export function TemplateEditor() {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const notify = useNotify();
  const lang = useLang();
  const model = useMeta();
  const [row, setRow] = useState<TemplateRow>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const reserved = useFetch<ReservedType[]>(RESERVED);
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false, code: false, codeBlock: false, strike: false }), TemplateField],
    content: '',
    // TipTap's own <style> would be refused by the back-office's CSP: its rules are in the sx below
    injectCSS: false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': translate('admin.editor.body'),
        'data-testid': 'template-body',
      },
    },
  });

  useEffect(() => {
    if (!/^\d+$/.test(id)) return;
    requestJson<TemplateRow>(`${TEMPLATES}/${id}`)
      .then((r) => setRow(r))
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [id]);
  const name = (t: Text3) => t[lang] || t.uz || t.ru || '';
  const reservedFields: FieldAttrs[] = (reserved.data ?? []).map((r) => ({ code: r.code, kind: 'reserved', label: name(r.name) }));
  const ownFields: FieldAttrs[] = (row?.fields ?? []).map((f) => ({ code: f.code, kind: 'own', label: name(f.name) }));
  const ready = !!row && (!!reserved.data || !!reserved.error);
  useEffect(() => {
    if (!editor || !row || !ready || editor.isDestroyed) return;
    // each placeholder shows its field's caption in the language shown (the stored markup keeps only its code)
    const labels = new Map([...reservedFields, ...ownFields].map((f) => [f.code, f.label]));
    editor.commands.setContent(withLabels(row.body ?? '', labels), { emitUpdate: false });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the body is set once per loaded row; saving keeps what is typed
  }, [editor, row?.id, ready]);
  const insert = (f: FieldAttrs) => {
    if (!editor) return;
    editor.chain().focus().insertField(f).run();
    // TipTap focuses on the next frame: back in the text at once, so that what is typed next is not the button's
    editor.view.focus();
  };

  const save = async () => {
    if (!row || !editor) return;
    setSaving(true);
    try {
      const saved = await requestJson<TemplateRow>(`${TEMPLATES}/${row.id}`, { method: 'PUT', body: { ...row, body: editor.getHTML() } });
      setRow(saved);
      notify('admin.editor.saved', { type: 'success' });
    } catch (e) {
      notify(errorMessage(e), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const caption = translate('menu.template_document_editor_detail');
  if (error)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {error}
      </Alert>
    );
  if (!row || !editor)
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={translate('admin.report.loading')} />
      </Box>
    );
  const showPath = model.resourceOf('template-documents') ? `/${model.resourceOf('template-documents')}/${row.id}/show` : '/';
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="template-editor">
      <Title title={`${caption} — ${row.name}`} />
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Button component={Link} to={showPath} startIcon={<ArrowBackIcon />}>
          {translate('admin.action.back')}
        </Button>
        <Typography variant="h6" component="h1" sx={{ flex: 1, minWidth: 200 }}>
          {row.name}
        </Typography>
        <Chip label={translate(`enums.language.${row.language}`)} size="small" />
        <Button variant="contained" startIcon={<SaveIcon />} onClick={save} disabled={saving} data-testid="template-save">
          {translate('ra.action.save')}
        </Button>
      </Stack>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) 300px' } }}>
        <Card variant="outlined">
          <Toolbar editor={editor} />
          <Box
            sx={{
              '& .ProseMirror': {
                minHeight: 360,
                p: 2,
                outline: 'none',
                whiteSpace: 'pre-wrap',
                wordWrap: 'break-word',
                fontVariantLigatures: 'none',
                fontSize: 15,
                lineHeight: 1.5,
                '& h1': { fontSize: 20, textAlign: 'center' },
                '& p': { my: 0.75 },
              },
              '& .ProseMirror-focused': { boxShadow: (th) => `inset 0 0 0 2px ${th.palette.primary.main}` },
              '& .td-field': {
                bgcolor: 'action.selected',
                border: 1,
                borderColor: 'primary.main',
                borderRadius: 1,
                px: 0.5,
                whiteSpace: 'nowrap',
                color: 'primary.dark',
              },
              '& .td-field[data-kind="own"]': { borderColor: 'secondary.main', color: 'secondary.dark' },
              '& .ProseMirror-selectednode': { outline: 2, outlineStyle: 'solid', outlineColor: 'primary.main' },
            }}
          >
            <EditorContent editor={editor} />
          </Box>
        </Card>
        <Card variant="outlined" component="aside" aria-label={translate('admin.editor.insert')}>
          <CardContent>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
              {translate('admin.editor.insert')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {translate('admin.editor.hint')}
            </Typography>
            <Divider sx={{ mb: 2 }} />
            {reserved.error && (
              <Alert severity="warning" sx={{ mb: 1 }}>
                {errorMessage(reserved.error)}
              </Alert>
            )}
            <FieldList title={translate('admin.editor.reserved')} fields={reservedFields} onInsert={insert} testId="reserved-fields" />
            {ownFields.length > 0 && (
              <FieldList title={translate('admin.editor.own')} fields={ownFields} onInsert={insert} testId="own-fields" />
            )}
          </CardContent>
        </Card>
      </Box>
    </Box>
  );
}
