import { parse } from 'exifr/dist/lite.esm.mjs';
import { exifTime } from './photo-info';

/**
 * A photo's EXIF time and GPS position, read on the device before the photo is resized (the
 * canvas's JPEG carries no EXIF). exifr's lite build (JPEG and HEIC, the TIFF tags), asked for
 * four GPS tags and two EXIF ones only: the rest of the file is not parsed. A photo with no EXIF
 * (a screenshot, a picture from a messenger) or one exifr cannot read gives nothing.
 */
export interface PhotoExif {
  /** Tashkent's "YYYY-MM-DD hh:mm" */
  time?: string;
  gps?: { lat: number; lng: number };
}

// IFD0 only for its pointers to the EXIF and GPS blocks (`false` is exifr's own way, as its gps()
// does, which its types do not allow); dates left as written, for exifTime to place in Tashkent
const OPTIONS = {
  ifd0: false,
  ifd1: false,
  interop: false,
  xmp: false,
  exif: { pick: ['DateTimeOriginal', 'OffsetTimeOriginal'] },
  gps: { pick: ['GPSLatitudeRef', 'GPSLatitude', 'GPSLongitudeRef', 'GPSLongitude'] },
  reviveValues: false,
  translateValues: false,
  mergeOutput: false,
} as unknown as Parameters<typeof parse>[1];

export async function readExif(file: Blob): Promise<PhotoExif> {
  try {
    const out = (await parse(file, OPTIONS)) as
      | { exif?: { DateTimeOriginal?: unknown; OffsetTimeOriginal?: unknown }; gps?: { latitude?: number; longitude?: number } }
      | undefined;
    const lat = out?.gps?.latitude;
    const lng = out?.gps?.longitude;
    const gps =
      typeof lat === 'number' &&
      typeof lng === 'number' &&
      Number.isFinite(lat) &&
      Number.isFinite(lng) &&
      Math.abs(lat) <= 90 &&
      Math.abs(lng) <= 180
        ? { lat: +lat.toFixed(6), lng: +lng.toFixed(6) }
        : undefined;
    return { time: exifTime(out?.exif?.DateTimeOriginal, out?.exif?.OffsetTimeOriginal), gps };
  } catch {
    return {};
  }
}
