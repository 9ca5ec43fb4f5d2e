import { useEffect, useRef, useState } from 'react';
import { Box, CircularProgress, FormHelperText, IconButton, Link as MuiLink, Stack, Tooltip, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import ImageIcon from '@mui/icons-material/Image';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, FieldTitle, Labeled, useInput, useNotify, useTranslate, type Validator } from 'react-admin';
import { accepts, downloadFile, fileBlob, fileInfo, formatSize, uploadFile, type ResourceInfo } from '../api/files';
import { errorMessage } from '../api/useFetch';
import type { FieldMeta } from '../meta/types';
import { DEFAULT_MAX_MB, describeFileLimits, describeFileTypes } from './fileTypes';

const idsOf = (v: unknown): number[] => (Array.isArray(v) ? v : v === null || v === undefined || v === '' ? [] : [v]).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);

/** A stored file's name, type and size, asked once per id. */
function useFileInfo(id: number): ResourceInfo | undefined {
  const [info, setInfo] = useState<ResourceInfo>();
  useEffect(() => {
    let live = true;
    fileInfo(id).then((i) => { if (live) setInfo(i); }).catch(() => undefined);
    return () => { live = false; };
  }, [id]);
  return info;
}

/** An image file shown from a blob fetched with the token. */
export function ImagePreview({ id, size = 96 }: { id: number; size?: number }) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let live = true;
    let made: string | undefined;
    fileBlob(id).then(({ blob }) => {
      if (!live) return;
      made = URL.createObjectURL(blob);
      setUrl(made);
    }).catch(() => undefined);
    return () => { live = false; if (made) URL.revokeObjectURL(made); };
  }, [id]);
  return (
    <Box sx={{ width: size, height: size, border: 1, borderColor: 'divider', borderRadius: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden', bgcolor: 'grey.50' }}>
      {url ? <img src={url} alt="" style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} data-testid={`image-preview-${id}`} /> : <CircularProgress size={18} />}
    </Box>
  );
}

/** One stored file: its name as a link that downloads it, its size, and a preview for images. */
function FileItem({ id, image, onRemove }: { id: number; image?: boolean; onRemove?: () => void }) {
  const info = useFileInfo(id);
  const translate = useTranslate();
  const notify = useNotify();
  const isImage = image || info?.mime.startsWith('image/');
  const download = () => downloadFile(id).catch((err) => {
    const m = errorMessage(err);
    notify(m, { type: 'error', messageArgs: { _: m } });
  });
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 0.5 }} data-testid={`file-${id}`}>
      {isImage ? <ImagePreview id={id} size={image ? 96 : 48} /> : <InsertDriveFileIcon color="action" />}
      <Box sx={{ minWidth: 0 }}>
        <Tooltip title={translate('admin.file.download')}>
          <MuiLink component="button" type="button" onClick={() => void download()} sx={{ textAlign: 'left', wordBreak: 'break-all' }}>
            {info?.original_name ?? `#${id}`}
          </MuiLink>
        </Tooltip>
        {info?.size ? <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>{formatSize(info.size)}</Typography> : null}
      </Box>
      {onRemove && (
        <IconButton size="small" onClick={onRemove} aria-label={translate('admin.file.remove')} data-testid={`file-remove-${id}`}>
          <CloseIcon fontSize="small" />
        </IconButton>
      )}
    </Box>
  );
}

/** The files of a `file`, `image` or `files` value on a show page; a count in a list. */
export function FilesField({ field, value, inList }: { field: FieldMeta; value: unknown; inList?: boolean }) {
  const translate = useTranslate();
  const ids = idsOf(value);
  if (!ids.length) {
    return <Typography variant="body2" color="text.secondary">{translate(field.type === 'image' ? 'admin.empty.no_photo' : 'admin.empty.no_files')}</Typography>;
  }
  if (inList) {
    const Icon = field.type === 'image' ? ImageIcon : AttachFileIcon;
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color: 'text.secondary' }}>
        <Icon fontSize="small" />{field.type === 'files' ? ids.length : null}
      </Box>
    );
  }
  return (
    <Stack spacing={0.5}>
      {ids.map((id) => <FileItem key={id} id={id} image={field.type === 'image'} />)}
    </Stack>
  );
}

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
    input.onChange(multiple ? next : next[0] ?? null);
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
        <Box sx={{ border: 1, borderColor: error || problem ? 'error.main' : 'divider', borderStyle: 'dashed', borderRadius: 1, px: 2, py: 1, minWidth: 320 }}>
          {ids.length > 0 && (
            <Stack spacing={0.5} sx={{ mb: 1 }}>
              {ids.map((id) => <FileItem key={id} id={id} image={field.type === 'image'} onRemove={() => set(ids.filter((x) => x !== id))} />)}
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
            {busy > 0 && <Typography variant="body2" color="text.secondary">{translate('admin.file.uploading')}</Typography>}
            {!ids.length && !busy && (
              <Typography variant="body2" color="text.secondary">
                {translate(field.type === 'image' ? 'admin.empty.no_photo' : 'admin.empty.no_files')}
              </Typography>
            )}
          </Box>
          <Typography variant="body2" color="text.secondary" id={`file-limits-${field.name}`} data-testid={`file-limits-${field.name}`} sx={{ mt: 0.5 }}>
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
          <FormHelperText error data-testid={`file-error-${field.name}`}>{problem ?? translate(error!, { _: error })}</FormHelperText>
        )}
      </Box>
    </Labeled>
  );
}
