import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { dbhCm, orientationOf, PASSPORTS, printHeading, printPath, publicMapUrl, publicTreeUrl } from './passport';

describe('tree passports', () => {
  it('derives the diameter at breast height from the circumference, one decimal', () => {
    expect(dbhCm('45.0')).toBe('14.3');
    expect(dbhCm(314.159)).toBe('100.0');
    expect(dbhCm('')).toBe('');
    expect(dbhCm(null)).toBe('');
    expect(dbhCm('0')).toBe('');
    expect(dbhCm('abc')).toBe('');
  });

  it('points the QR code at the public page of the tree, or at its place on the public map', () => {
    expect(publicTreeUrl('https://ecofond.uz/', 12)).toBe('https://ecofond.uz/#/tree/12');
    expect(PASSPORTS.plantings.qr('http://x', { id: 7 })).toBe('http://x/#/tree/7');
    expect(publicMapUrl('http://x', { lat: 41.3111, lng: 69.2797 })).toBe('http://x/#/map?lat=41.311100&lng=69.279700&z=18');
    expect(PASSPORTS['hundred-yo-trees'].qr('http://x', { id: 3, location: null })).toBeUndefined();
    expect(printPath('plantings', 12)).toBe('/print/plantings/12');
  });

  it('encodes the address in a QR code the qrcode package draws as SVG', async () => {
    const url = publicTreeUrl('http://127.0.0.1:8093', 5);
    const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
    expect(
      qr.segments
        .map((s) => (s as unknown as { data: Uint8Array | string }).data)
        .map((d) => (typeof d === 'string' ? d : new TextDecoder().decode(d)))
        .join(''),
    ).toBe(url);
    const svg = await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    expect(svg).toMatch(/^<svg[^>]+viewBox/);
  });
});

describe('a printed row', () => {
  it('is headed by its caption and number where its title is only the number, never "145 № 145"', () => {
    expect(printHeading('Kompensatsiya hisoboti', '145', 145)).toEqual({ title: 'Kompensatsiya hisoboti № 145' });
    expect(printHeading('Kompensatsiya hisoboti', '#145', 145)).toEqual({ title: 'Kompensatsiya hisoboti № 145' });
    expect(printHeading('Dalolatnoma', 'AK-12', 7)).toEqual({ overline: 'Dalolatnoma', title: 'AK-12 № 7' });
  });

  it('turns to landscape only for a table wider than a portrait sheet holds', () => {
    const cols = (n: number) => Array.from({ length: n }, () => ({}));
    expect(orientationOf([{ type: 'string' }, { type: 'children', fields: cols(6) }])).toBe('portrait');
    expect(orientationOf([{ type: 'children', fields: [...cols(7), { hidden: true }] }])).toBe('portrait');
    expect(orientationOf([{ type: 'children', fields: cols(9) }])).toBe('landscape');
    expect(orientationOf([{ type: 'children', hidden: true, fields: cols(9) }])).toBe('portrait');
  });
});
