/**
 * A photo as the device keeps and sends it: resized on the device (the longer side at most
 * MAX_SIDE px, JPEG quality QUALITY) so a 5 MB camera picture goes as ~200–400 kB over a weak link.
 */
export const MAX_SIDE = 1600;
export const QUALITY = 0.82;

export async function resizePhoto(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const w = Math.max(1, Math.round(bitmap.width * scale));
    const h = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const g = canvas.getContext('2d');
    if (!g) return file;
    // JPEG has no transparency: white, not black, under a transparent picture
    g.fillStyle = '#fff';
    g.fillRect(0, 0, w, h);
    g.drawImage(bitmap, 0, 0, w, h);
    const out = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', QUALITY));
    return out ?? file;
  } finally {
    bitmap.close();
  }
}
