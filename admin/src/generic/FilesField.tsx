import { Box, Stack, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import ImageIcon from '@mui/icons-material/Image';
import { useTranslate } from 'react-admin';
import type { FieldMeta } from '../meta/types';
import { idsOf } from './fileIds';
import { FileItem } from './FileItem';

/** The files of a `file`, `image` or `files` value on a show page; a count in a list. */
export function FilesField({ field, value, inList }: { field: FieldMeta; value: unknown; inList?: boolean }) {
  const translate = useTranslate();
  const ids = idsOf(value);
  if (!ids.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate(field.type === 'image' ? 'admin.empty.no_photo' : 'admin.empty.no_files')}
      </Typography>
    );
  }
  if (inList) {
    const Icon = field.type === 'image' ? ImageIcon : AttachFileIcon;
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color: 'text.secondary' }}>
        <Icon fontSize="small" />
        {field.type === 'files' ? ids.length : null}
      </Box>
    );
  }
  return (
    <Stack spacing={0.5}>
      {ids.map((id) => (
        <FileItem key={id} id={id} image={field.type === 'image'} />
      ))}
    </Stack>
  );
}
