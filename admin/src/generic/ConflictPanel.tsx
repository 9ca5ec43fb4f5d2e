import { useCallback, useEffect, useRef } from 'react';
import { Alert, AlertTitle, Box, Button, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { i18n } from '../i18n';
import { useMeta } from '../meta/store';
import type { EntityMeta, FieldMeta } from '../meta/types';
import { captionOf, fieldOfKey, htmlText, looksHtml } from './audit';
import { AuditValue } from './AuditValue';
import type { Choice, Conflict } from './conflict';
import { MetaField } from './MetaField';
import { useLang } from './useLang';

const exists = (k: string) => i18n.exists(k);

/**
 * Inside a form whose save was refused as stale (conflict.ts): for each field that differs, its
 * caption, what the user had typed ("yours") and the server's ("now on the server"), both as the list
 * shows values (AuditValue, as the history does), and a choice between them. Taking the server's
 * puts it in the input; keeping one's own puts back what the user had typed. Nothing else of the
 * form changes, so no input is lost; the next save carries the row's new version.
 */
export function ConflictPanel({
  entity,
  conflict,
  choices,
  onChoose,
}: {
  entity: EntityMeta;
  conflict: Conflict;
  choices: Record<string, Choice | undefined>;
  onChoose: (key: string, choice: Choice) => void;
}) {
  const translate = useTranslate();
  const model = useMeta();
  const { getValues, setValue, formState } = useFormContext();
  // what the user had typed when the save was refused, to put back on "keep mine"
  const mine = useRef<Record<string, unknown>>({});
  const seen = useRef<Conflict | null>(null);
  if (seen.current !== conflict) {
    seen.current = conflict;
    mine.current = Object.fromEntries(conflict.differs.map((k) => [k, choices[k] === 'server' ? mine.current[k] : getValues(k)]));
  }
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [conflict]);

  const choose = useCallback(
    (k: string, c: Choice) => {
      setValue(k, c === 'server' ? conflict.current[k] : mine.current[k], { shouldDirty: true });
      onChoose(k, c);
    },
    [setValue, conflict, onChoose],
  );
  // a field the user left as it was loaded takes the server's value at once: keeping "theirs" there
  // would silently undo the other person's change (the user can still keep theirs)
  // (once a field: after it, the field has a choice)
  useEffect(() => {
    const loaded = (formState.defaultValues ?? {}) as Record<string, unknown>;
    for (const k of conflict.differs)
      if (choices[k] === undefined && JSON.stringify(mine.current[k] ?? null) === JSON.stringify(loaded[k] ?? null)) choose(k, 'server');
  }, [conflict, choices, choose, formState.defaultValues]);

  return (
    <Alert
      severity="warning"
      ref={ref}
      sx={{
        mb: 2,
        width: '100%',
        boxSizing: 'border-box',
        '& .MuiAlert-message': { width: '100%', minWidth: 0 },
        '& .MuiAlert-icon': { display: { xs: 'none', sm: 'flex' } },
        px: { xs: 1.5, sm: 2 },
      }}
      data-testid="conflict-panel"
    >
      <AlertTitle>{translate('admin.conflict.conflict_title')}</AlertTitle>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('admin.conflict.conflict_help')}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {conflict.differs.map((k) => {
          const field = fieldOfKey(model, entity, k);
          const choice = choices[k] ?? 'mine';
          return (
            <Box
              key={k}
              data-testid="conflict-field"
              data-field={k}
              data-choice={choice}
              sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}
            >
              <Typography variant="subtitle2" sx={{ fontWeight: 600 }}>
                {captionOf(field, translate, exists)}
              </Typography>
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1, mt: 0.5 }}>
                <Side label={translate('admin.conflict.yours')} chosen={choice === 'mine'} testid="conflict-yours">
                  <Value field={field} value={mine.current[k]} other={conflict.current[k]} />
                </Side>
                <Side label={translate('admin.conflict.server')} chosen={choice === 'server'} testid="conflict-server">
                  <Value field={field} value={conflict.current[k]} other={mine.current[k]} />
                </Side>
              </Box>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 0.5 }}>
                <Button
                  size="small"
                  sx={{ whiteSpace: 'normal', textAlign: 'start' }}
                  variant={choice === 'mine' ? 'contained' : 'outlined'}
                  color="inherit"
                  onClick={() => choose(k, 'mine')}
                  aria-pressed={choice === 'mine'}
                  data-testid="conflict-keep-mine"
                >
                  {translate('admin.conflict.keep_mine')}
                </Button>
                <Button
                  size="small"
                  sx={{ whiteSpace: 'normal', textAlign: 'start' }}
                  variant={choice === 'server' ? 'contained' : 'outlined'}
                  onClick={() => choose(k, 'server')}
                  aria-pressed={choice === 'server'}
                  data-testid="conflict-take-server"
                >
                  {translate('admin.conflict.take_server')}
                </Button>
              </Box>
            </Box>
          );
        })}
      </Box>
    </Alert>
  );
}

const LANGS = ['uz', 'uk', 'ru'] as const;
const part = (v: unknown, l: string): string => {
  const x = v && typeof v === 'object' ? (v as Record<string, unknown>)[l] : undefined;
  return typeof x === 'string' ? x : '';
};

/**
 * One side's value as the list shows it; a three-language text whose difference is not in the
 * language shown says the parts that differ, each under its language's name, so that the two
 * sides never look the same.
 */
function Value({ field, value, other }: { field: FieldMeta; value: unknown; other: unknown }) {
  const translate = useTranslate();
  const lang = useLang();
  if (field.type === 'text3' && part(value, lang) === part(other, lang)) {
    const differ = LANGS.filter((l) => part(value, l) !== part(other, l));
    if (differ.length)
      return (
        <Box component="span" sx={{ display: 'flex', flexDirection: 'column' }}>
          {differ.map((l) => (
            <span key={l} data-lang={l}>
              <Typography component="span" variant="body2" color="text.secondary">
                {translate(`admin.form.lang_${l}`)}:
              </Typography>{' '}
              {part(value, l) ? htmlOrText(field, part(value, l)) : '—'}
            </span>
          ))}
        </Box>
      );
  }
  return <AuditValue field={field} value={value} view={MetaField} />;
}

const htmlOrText = (field: FieldMeta, s: string) => (field.html || looksHtml(s) ? htmlText(s) : s);

function Side({ label, chosen, testid, children }: { label: string; chosen: boolean; testid: string; children: React.ReactNode }) {
  return (
    <Box
      data-testid={testid}
      sx={{
        p: 1,
        borderRadius: 1,
        border: 1,
        borderColor: chosen ? 'success.main' : 'divider',
        bgcolor: 'background.paper',
        minWidth: 0,
        overflowWrap: 'anywhere',
      }}
    >
      <Typography variant="caption" color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        {chosen && <CheckIcon fontSize="inherit" color="success" />}
        {label}
      </Typography>
      <Box>{children}</Box>
    </Box>
  );
}
