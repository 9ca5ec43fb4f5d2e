import { useEffect, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { useTranslate } from 'react-admin';
import { fileBlob } from '../api/files';

/** An image file shown from a blob fetched with the token. */
export function ImagePreview({ id, size = 96 }: { id: number; size?: number }) {
  const translate = useTranslate();
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let live = true;
    let made: string | undefined;
    fileBlob(id)
      .then(({ blob }) => {
        if (!live) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [id]);
  return (
    <Box
      sx={{
        width: size,
        height: size,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
        bgcolor: 'grey.50',
      }}
    >
      {url ? (
        <img src={url} alt="" style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} data-testid={`image-preview-${id}`} />
      ) : (
        // a progress bar is named (axe: aria-progressbar-name)
        <CircularProgress size={18} aria-label={translate('ra.page.loading')} />
      )}
    </Box>
  );
}
