import { Fragment } from 'react';
import { Box, Divider, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { EntityMeta, FieldMeta } from '../meta/types';
import { isDerived, MetaInput } from './inputs';
import { useExtension } from './extensions';

/** The form's inputs, in the metadata's sections when it has them. */
export function FormBody({ entity, mode }: { entity: EntityMeta; mode: 'create' | 'edit' }) {
  const translate = useTranslate();
  const hints = useExtension(entity.name).formHints ?? {};
  const byName = new Map(entity.fields.map((f) => [f.name, f]));
  // a section none of whose fields has an input here (a create form's computed ones) is left out, heading and all
  const input = (f: FieldMeta | undefined): f is FieldMeta => !!f && !f.hidden && !(mode === 'create' && isDerived(f));
  const sections = (
    entity.form?.sections?.length
      ? entity.form.sections.map((s) => ({ label: s.label, fields: s.fields.map((n) => byName.get(n)).filter(input) }))
      : [{ label: undefined, fields: entity.fields.filter(input) }]
  ).filter((s) => s.fields.length);
  return (
    <>
      {sections.map((s, i) => (
        <Box key={s.label ?? i} sx={{ width: '100%', maxWidth: 960 }}>
          {s.label && (
            <>
              {i > 0 && <Divider sx={{ my: 2 }} />}
              <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                {translate(s.label)}
              </Typography>
            </>
          )}
          {s.fields.map((f) => {
            const Hint = hints[f.name];
            return Hint ? (
              <Fragment key={f.name}>
                <MetaInput field={f} mode={mode} />
                <Hint entity={entity} />
              </Fragment>
            ) : (
              <MetaInput key={f.name} field={f} mode={mode} />
            );
          })}
        </Box>
      ))}
    </>
  );
}
