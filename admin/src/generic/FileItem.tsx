import { useEffect, useState } from 'react';
import { Box, IconButton, Link as MuiLink, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import { useNotify, useTranslate } from 'react-admin';
import { downloadFile, fileInfo, formatSize, type ResourceInfo } from '../api/files';
import { errorMessage } from '../api/useFetch';
import { ImagePreview } from './ImagePreview';

/** One stored file: its name as a link that downloads it, its size, and a preview for images. */
export function FileItem({ id, image, onRemove }: { id: number; image?: boolean; onRemove?: () => void }) {
  const info = useFileInfo(id);
  const translate = useTranslate();
  const notify = useNotify();
  const isImage = image || info?.mime.startsWith('image/');
  const download = () =>
    downloadFile(id).catch((err) => {
      const m = errorMessage(err);
      notify(m, { type: 'error', messageArgs: { _: m } });
    });
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 0.5 }} data-testid={`file-${id}`}>
      {isImage ? <ImagePreview id={id} size={image ? 96 : 48} /> : <InsertDriveFileIcon color="action" />}
      <Box sx={{ minWidth: 0 }}>
        {/* the hint describes the link, which is named by the file's name it shows (MUI would name it by the hint) */}
        <Tooltip title={translate('admin.file.download')} describeChild>
          <MuiLink component="button" type="button" onClick={() => void download()} sx={{ textAlign: 'left', wordBreak: 'break-all' }}>
            {info?.original_name ?? `#${id}`}
          </MuiLink>
        </Tooltip>
        {info?.size ? (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {formatSize(info.size)}
          </Typography>
        ) : null}
      </Box>
      {onRemove && (
        <IconButton size="small" onClick={onRemove} aria-label={translate('admin.file.remove')} data-testid={`file-remove-${id}`}>
          <CloseIcon fontSize="small" />
        </IconButton>
      )}
    </Box>
  );
}

/** A stored file's name, type and size, asked once per id. */
function useFileInfo(id: number): ResourceInfo | undefined {
  const [info, setInfo] = useState<ResourceInfo>();
  useEffect(() => {
    let live = true;
    fileInfo(id)
      .then((i) => {
        if (live) setInfo(i);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id]);
  return info;
}
