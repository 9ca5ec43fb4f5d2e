import { latinToCyrillic } from '../api/i18n/transliterate.ts';
import { readCaptions, writeCaptions } from './i18n-files.ts';

/** Adds every uz caption missing from uk, transliterated; returns how many were added. */
export function fillUzbekCyrillic(root: string): number {
  const uz = readCaptions(root, 'uz');
  const uk = readCaptions(root, 'uk');
  let added = 0;
  for (const [k, v] of Object.entries(uz)) {
    if (!(k in uk)) { uk[k] = latinToCyrillic(v); added++; }
  }
  writeCaptions(root, 'uk', uk);
  return added;
}
