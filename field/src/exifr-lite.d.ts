/** exifr's lite build (field/src/exif.ts) has the package's own types. */
declare module 'exifr/dist/lite.esm.mjs' {
  export { parse, gps } from 'exifr';
}
