import { useEffect } from 'react';
import { Box, Card, FormHelperText, Typography } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Toolbar } from '../documents/TemplateEditor';

/**
 * Rich text (a field marked `html`) in TipTap, the editor the template documents use, with the same
 * toolbar. It writes only what the server's allow-list keeps (api/engine/rich-html.ts): paragraphs,
 * headings, lists, quotes, rules, bold / italic / underline / strike. The server sanitises again
 * whatever arrives. Its own chunk: loaded the first time a form has rich text.
 */
export function RichTextEditor({
  value,
  onChange,
  label,
  testId,
  minHeight = 200,
}: {
  value: string;
  onChange: (html: string) => void;
  label: string;
  testId?: string;
  minHeight?: number;
}) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false, code: false, codeBlock: false })],
    content: value || '',
    // TipTap's own <style> would be refused by the back-office's CSP: its rules are in the sx below
    injectCSS: false,
    editorProps: {
      attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': label, ...(testId ? { 'data-testid': testId } : {}) },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  // a value set from outside (another record loaded) replaces the text; typing does not come back here
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if ((value || '') !== current) editor.commands.setContent(value || '', { emitUpdate: false });
  }, [editor, value]);
  if (!editor) return null;
  return (
    <Card variant="outlined">
      <Toolbar editor={editor} />
      <Box
        sx={{
          '& .ProseMirror': {
            minHeight,
            p: 2,
            outline: 'none',
            whiteSpace: 'pre-wrap',
            wordWrap: 'break-word',
            fontSize: 15,
            lineHeight: 1.5,
            '& p': { my: 0.75 },
          },
          '& .ProseMirror-focused': { boxShadow: (th) => `inset 0 0 0 2px ${th.palette.primary.main}` },
        }}
      >
        <EditorContent editor={editor} />
      </Box>
    </Card>
  );
}

/** A react-admin input of one rich-text value (one language of a `text3`, or a `text`). */
export default function RichTextInput({ source, label, required }: { source: string; label: React.ReactNode; required?: boolean }) {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source });
  const error = fieldState.error?.message;
  return (
    <Box sx={{ width: '100%', mb: 2 }} data-testid={`rich-${source}`}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }} component="div">
        {label}
        {required ? <span aria-hidden="true">&thinsp;*</span> : null}
      </Typography>
      <RichTextEditor
        value={(field.value as string | null) ?? ''}
        onChange={field.onChange}
        label={typeof label === 'string' ? label : source}
        testId={`rich-editor-${source}`}
      />
      {error && <FormHelperText error>{translate(error)}</FormHelperText>}
    </Box>
  );
}
