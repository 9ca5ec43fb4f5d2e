/**
 * What a file field accepts, in words instead of MIME types: "PNG, JPEG yoki SVG rasm, 2 MB
 * gacha" / "Изображение PNG, JPEG или SVG, до 2 МБ", from the field's `accept` and `maxSizeMb`.
 */
type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The names users know a type by (formats stay Latin in every language). */
const NAMES: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/jpg': 'JPEG',
  'image/svg+xml': 'SVG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
  'image/tiff': 'TIFF',
  'image/bmp': 'BMP',
  'application/vnd.ms-excel': 'Excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'application/msword': 'Word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'text/csv': 'CSV',
  'text/plain': 'TXT',
  'application/zip': 'ZIP',
  'application/json': 'JSON',
  'application/xml': 'XML',
  'text/xml': 'XML',
  'video/mp4': 'MP4',
  'video/webm': 'WebM',
  'video/quicktime': 'MOV',
};

/** The default upload limit of the API when a field declares none. */
export const DEFAULT_MAX_MB = 20;

const unique = (xs: string[]) => [...new Set(xs)];

/** "A", "A yoki B", "A, B yoki C" */
function orList(items: string[], t: Translate): string {
  if (items.length <= 1) return items[0] ?? '';
  return t('admin.file.types_or', { list: items.slice(0, -1).join(', '), last: items[items.length - 1] });
}

/** The accepted types in words ("PDF yoki rasm"), or "" when any file is accepted. */
export function describeFileTypes(accept: string[] | undefined, t: Translate): string {
  if (!accept?.length || accept.includes('*/*')) return '';
  const anyImage = accept.some((a) => a === 'image/*');
  const images = unique(accept.filter((a) => a.startsWith('image/') && a !== 'image/*').map((a) => NAMES[a] ?? a.slice(6).toUpperCase()));
  const others = unique(
    accept
      .filter((a) => !a.startsWith('image/'))
      .map((a) => NAMES[a] ?? (a.startsWith('.') ? a.slice(1).toUpperCase() : (a.split('/')[1] ?? a).toUpperCase())),
  );
  if (anyImage) return orList([...others, t('admin.file.type_image')], t);
  if (!images.length) return orList(others, t);
  if (!others.length) return t('admin.file.type_image_of', { types: orList(images, t) });
  return orList([...others, ...images], t);
}

/** The types and the size limit as one phrase, starting with a capital: "PNG, JPEG yoki SVG rasm, 2 MB gacha". */
export function describeFileLimits(accept: string[] | undefined, maxSizeMb: number | undefined, t: Translate): string {
  const types = describeFileTypes(accept, t) || t('admin.file.type_any');
  const text = t('admin.file.limits', {
    types,
    size: t('admin.file.up_to', { mb: String(maxSizeMb ?? DEFAULT_MAX_MB).replace('.', ',') }),
  });
  return text.charAt(0).toUpperCase() + text.slice(1);
}
