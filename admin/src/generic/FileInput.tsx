import { useRef, useState } from 'react';
import { Box, CircularProgress, FormHelperText, Stack, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, FieldTitle, Labeled, useInput, useTranslate, type Validator } from 'react-admin';
import { accepts, uploadFile } from '../api/files';
import { errorMessage } from '../api/useFetch';
import type { FieldMeta } from '../meta/types';
import { DEFAULT_MAX_MB, describeFileLimits, describeFileTypes } from './fileTypes';
import { idsOf } from './fileIds';
import { FileItem } from './FileItem';

/**
 * The input of a `file`, `image` or `files` field: choosing files uploads each at once (the raw
 * file as the body of `resources/upload`), and the field keeps the ids (`files`: an array). The
 * accepted types and size of the metadata are checked first; errors are in the language shown.
 */
export function FileInput({ field, validate }: { field: FieldMeta; validate?: Validator[] }) {
  const translate = useTranslate();
  const multiple = field.type === 'files';
  const { field: input, fieldState, isRequired } = useInput({ source: field.name, validate });
  const [busy, setBusy] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const ids = idsOf(input.value);

  const set = (next: number[]) => {
    input.onChange(multiple ? next : (next[0] ?? null));
    input.onBlur();
  };

  const choose = async (files: FileList | null) => {
    if (!files?.length) return;
    setProblem(null);
    const list = multiple ? [...files] : [files[0]];
    const added: number[] = [];
    for (const file of list) {
      if (!accepts(field.accept, file.type, file.name)) {
        setProblem(translate('admin.file.wrong_type', { name: file.name, types: describeFileTypes(field.accept, translate) }));
        continue;
      }
      const max = field.maxSizeMb ?? DEFAULT_MAX_MB;
      if (file.size > max * 1024 * 1024) {
        setProblem(translate('admin.file.too_large', { name: file.name, mb: max }));
        continue;
      }
      if (file.size === 0) {
        setProblem(translate('admin.file.empty', { name: file.name }));
        continue;
      }
      setBusy((b) => b + 1);
      try {
        const info = await uploadFile(file);
        added.push(info.id);
      } catch (err) {
        setProblem(`${file.name}: ${translate(errorMessage(err), { _: errorMessage(err) })}`);
      } finally {
        setBusy((b) => b - 1);
      }
    }
    if (added.length) set(multiple ? [...ids, ...added.filter((a) => !ids.includes(a))] : added);
    if (picker.current) picker.current.value = '';
  };

  const error = fieldState.error?.message;
  return (
    <Labeled label={<FieldTitle label={field.label} source={field.name} isRequired={isRequired} />} sx={{ mb: 2, width: '100%' }}>
      <Box data-testid={`file-input-${field.name}`}>
        <Box
          sx={{
            border: 1,
            borderColor: error || problem ? 'error.main' : 'divider',
            borderStyle: 'dashed',
            borderRadius: 1,
            px: 2,
            py: 1,
            minWidth: 320,
          }}
        >
          {ids.length > 0 && (
            <Stack spacing={0.5} sx={{ mb: 1 }}>
              {ids.map((id) => (
                <FileItem key={id} id={id} image={field.type === 'image'} onRemove={() => set(ids.filter((x) => x !== id))} />
              ))}
            </Stack>
          )}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Button
              label={multiple || !ids.length ? 'admin.file.choose' : 'admin.file.replace'}
              onClick={() => picker.current?.click()}
              disabled={busy > 0}
              aria-describedby={`file-limits-${field.name}`}
              data-testid={`file-choose-${field.name}`}
            >
              {busy > 0 ? <CircularProgress size={16} /> : <UploadFileIcon />}
            </Button>
            {busy > 0 && (
              <Typography variant="body2" color="text.secondary">
                {translate('admin.file.uploading')}
              </Typography>
            )}
            {!ids.length && !busy && (
              <Typography variant="body2" color="text.secondary">
                {translate(field.type === 'image' ? 'admin.empty.no_photo' : 'admin.empty.no_files')}
              </Typography>
            )}
          </Box>
          <Typography
            variant="body2"
            color="text.secondary"
            id={`file-limits-${field.name}`}
            data-testid={`file-limits-${field.name}`}
            sx={{ mt: 0.5 }}
          >
            {describeFileLimits(field.accept, field.maxSizeMb, translate)}
          </Typography>
          <input
            ref={picker}
            type="file"
            hidden
            multiple={multiple}
            accept={field.accept?.join(',')}
            onChange={(e) => void choose(e.target.files)}
            data-testid={`file-picker-${field.name}`}
          />
        </Box>
        {(problem || error) && (
          <FormHelperText error data-testid={`file-error-${field.name}`}>
            {problem ?? translate(error!, { _: error })}
          </FormHelperText>
        )}
      </Box>
    </Labeled>
  );
}
