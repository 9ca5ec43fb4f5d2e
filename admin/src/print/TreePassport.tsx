import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import ParkIcon from '@mui/icons-material/Park';
import { useTranslate, type RaRecord } from 'react-admin';
import { useLang } from '../generic/useLang';
import { titleOf } from '../generic/titleOf';
import { formatDate, formatNumber, text3, todayTashkent } from '../generic/format';
import type { EntityMeta } from '../meta/types';
import { QrCode } from './QrCode';
import { dbhCm, PASSPORTS, type Paper } from './passport';
import { useImageUrl } from './useImageUrl';
import { useRefRecord } from './useRefRecord';

const present = (v: unknown) => v !== null && v !== undefined && v !== '';
const firstId = (v: unknown): number | undefined => {
  const ids = (Array.isArray(v) ? v : present(v) ? [v] : []).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
  return ids[0];
};

/**
 * A tree's passport, A5 or A4: the species (Latin and local name), height, circumference and
 * diameter at breast height (circumference / π), when it was planted (or its age), the place and
 * its kind, the region, the responsible organisation, the first photo, and a QR code of its page
 * on the public site. Fields the entity does not have are left out, so plantings and
 * hundred-year-old trees share it.
 */
export function TreePassport({ entity, record, paper = 'A5' }: { entity: EntityMeta; record: RaRecord; paper?: Paper }) {
  const translate = useTranslate();
  const lang = useLang();
  const has = (name: string) => entity.fields.some((f) => f.name === name);
  const field = (name: string) => entity.fields.find((f) => f.name === name);
  const caption = (name: string, fallback: string) => translate(field(name)?.label ?? fallback);

  const species = useRefRecord(field('species_id')?.ref, record.species_id);
  const region = useRefRecord(field('region_id')?.ref, record.region_id);
  const area = useRefRecord(field('area_id')?.ref, record.area_id);
  const org = useRefRecord(field('org_id')?.ref, record.org_id);
  const imageId = firstId(record.images ?? record.image);
  const image = useImageUrl(imageId);
  const qrUrl = PASSPORTS[entity.name]?.qr(window.location.origin, record);

  const cm = translate('admin.print.unit_cm');
  const rows: { key: string; label: string; value: ReactNode }[] = [];
  const add = (key: string, label: string, value: ReactNode) => {
    if (present(value)) rows.push({ key, label, value });
  };

  if (has('count') && Number(record.count) > 1) add('count', caption('count', 'fields.count'), formatNumber(record.count, 0));
  if (has('age_years'))
    add(
      'age',
      caption('age_years', 'fields.age_years'),
      present(record.age_years) ? translate('admin.print.years', { n: formatNumber(record.age_years, 0) }) : '',
    );
  add(
    'height',
    translate('admin.print.height'),
    present(record.height_m) ? `${formatNumber(record.height_m, 2)} ${translate('admin.print.unit_m')}` : '',
  );
  add(
    'circumference',
    translate('admin.print.circumference'),
    present(record.circumference_cm) ? `${formatNumber(record.circumference_cm, 1)} ${cm}` : '',
  );
  const dbh = dbhCm(record.circumference_cm);
  add('dbh', translate('admin.print.dbh'), dbh ? `${formatNumber(dbh, 1)} ${cm}` : '');
  if (has('planted_on')) add('planted', translate('admin.print.planted_on'), formatDate(record.planted_on));
  if (has('place_type') && present(record.place_type))
    add('place_type', caption('place_type', 'fields.place_type'), translate(`enums.place_type.${String(record.place_type)}`));
  add('place', translate('admin.print.place'), String(record.place ?? record.address ?? '').trim());
  const regionText = [region.record && titleOf(region.entity, region.record, lang), area.record && titleOf(area.entity, area.record, lang)]
    .filter(Boolean)
    .join(', ');
  add('region', translate('admin.print.region'), regionText);
  // an organisation under its caption; the free-text responsible (a person, often) under the field's own
  const orgText = org.record ? titleOf(org.entity, org.record, lang) : '';
  if (orgText) add('org', translate('admin.print.organisation'), orgText);
  else add('org', caption('responsible', 'fields.responsible'), String(record.responsible ?? '').trim());
  const loc = record.location as { lat?: number; lng?: number } | null | undefined;
  if (loc && typeof loc.lat === 'number' && typeof loc.lng === 'number')
    add('location', translate('admin.print.coordinates'), `${loc.lat.toFixed(6)}, ${loc.lng.toFixed(6)}`);

  const latin = species.record ? String(species.record.latin_name ?? '') : '';
  const local = species.record ? text3(species.record.name, lang) : '';
  const number = String(record.id).padStart(6, '0');

  return (
    <Box
      sx={{
        flex: 1,
        display: 'flex',
        flexDirection: 'column',
        gap: '4mm',
        border: '0.6mm solid #2e7d32',
        borderRadius: '2mm',
        p: '5mm',
        breakInside: 'avoid',
        boxSizing: 'border-box',
      }}
      data-testid="tree-passport"
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: '3mm', borderBottom: '0.3mm solid #2e7d32', pb: '3mm' }}>
        <ParkIcon sx={{ color: '#2e7d32', fontSize: '12mm' }} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontSize: '0.8em', textTransform: 'uppercase', letterSpacing: '0.08em', color: '#2e7d32' }}>
            {translate('admin.title')}
          </Typography>
          <Typography component="h1" sx={{ fontSize: '1.6em', fontWeight: 700, lineHeight: 1.2 }}>
            {translate('admin.print.passport_title')}
          </Typography>
        </Box>
        <Box sx={{ textAlign: 'right' }}>
          <Typography sx={{ fontSize: '0.8em', color: 'text.secondary' }}>{translate('admin.print.number')}</Typography>
          <Typography sx={{ fontSize: '1.3em', fontWeight: 700, fontFamily: 'monospace' }} data-testid="passport-number">
            № {number}
          </Typography>
        </Box>
      </Box>

      <Box sx={{ display: 'flex', gap: '4mm', alignItems: 'center' }}>
        <Box sx={{ flex: 1, minWidth: 0, textAlign: imageId ? 'left' : 'center' }} data-testid="passport-species">
          <Typography sx={{ fontSize: '0.8em', color: 'text.secondary' }}>{translate('admin.print.species')}</Typography>
          {latin && (
            <Typography sx={{ fontSize: '1.5em', fontStyle: 'italic', fontWeight: 600, fontFamily: 'Georgia, serif', lineHeight: 1.25 }}>
              {latin}
            </Typography>
          )}
          {local && <Typography sx={{ fontSize: '1.15em' }}>{local}</Typography>}
        </Box>
        {imageId && (
          <Box
            sx={{
              width: paper === 'A4' ? '55mm' : '34mm',
              flexShrink: 0,
              aspectRatio: '1 / 1',
              border: '0.3mm solid #ccc',
              borderRadius: '1mm',
              overflow: 'hidden',
              bgcolor: '#f5f5f5',
            }}
          >
            {image.url ? (
              <img
                src={image.url}
                alt={latin || local}
                style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
                data-testid="passport-photo"
              />
            ) : null}
          </Box>
        )}
      </Box>

      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)',
          columnGap: '3mm',
          rowGap: '1.5mm',
          alignContent: 'start',
          borderTop: '0.2mm dashed #a5c8a5',
          pt: '3mm',
        }}
        data-testid="passport-fields"
      >
        {rows.map((r) => (
          <Box key={r.key} sx={{ display: 'contents' }} data-field={r.key}>
            <Box component="dt" sx={{ color: 'text.secondary', fontSize: '0.9em' }}>
              {r.label}
            </Box>
            <Box component="dd" sx={{ m: 0, fontWeight: 600 }} data-testid={`passport-${r.key}`}>
              {r.value}
            </Box>
          </Box>
        ))}
      </Box>

      <Box sx={{ display: 'flex', alignItems: 'center', gap: '4mm', borderTop: '0.3mm solid #2e7d32', pt: '3mm', mt: 'auto' }}>
        {qrUrl && <QrCode url={qrUrl} size={paper === 'A4' ? 40 : 28} label={translate('admin.print.qr_label')} />}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          {qrUrl && (
            <>
              <Typography sx={{ fontSize: '0.9em' }}>
                {translate(entity.name === 'plantings' ? 'admin.print.qr_hint' : 'admin.print.qr_map_hint')}
              </Typography>
              <Typography
                sx={{ fontSize: '0.75em', fontFamily: 'monospace', wordBreak: 'break-all', color: 'text.secondary' }}
                data-testid="passport-url"
              >
                {qrUrl}
              </Typography>
            </>
          )}
          <Typography sx={{ fontSize: '0.75em', color: 'text.secondary', mt: '1mm' }}>
            {translate('admin.print.printed_on', { date: formatDate(todayTashkent()) })}
          </Typography>
        </Box>
      </Box>
    </Box>
  );
}
