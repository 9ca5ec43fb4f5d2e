import { useState } from 'react';
import { Alert, Box, CircularProgress } from '@mui/material';
import { useGetOne, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { errorMessage } from '../api/useFetch';
import { useLang } from '../generic/useLang';
import { titleOf } from '../generic/titleOf';
import { useRecordName } from '../generic/RecordName';
import { useMeta } from '../meta/store';
import { NotFound } from '../pages/NotFound';
import { GenericPrint } from './GenericPrint';
import { hasPassport, orientationOf, printHeading, type Paper } from './passport';
import { PrintFrame } from './PrintFrame';
import { TreePassport } from './TreePassport';

/**
 * `#/print/:entity/:id`, outside the app's layout: a tree's passport for the entities that have
 * one (plantings, hundred-year-old trees), any other row laid out from its form's sections.
 */
export function PrintPage() {
  const { entity: name = '', id = '' } = useParams();
  const model = useMeta();
  const translate = useTranslate();
  const lang = useLang();
  const entity = model.byName.get(name);
  const resource = model.resourceOf(name);
  const passport = hasPassport(name);
  // a passport fits A5, other rows A4; a choice holds for the row's entity only (the page is reused between rows)
  const [choice, setChoice] = useState<{ entity: string; paper: Paper }>();
  const paper: Paper = choice?.entity === name ? choice.paper : passport ? 'A5' : 'A4';
  const setPaper = (p: Paper) => setChoice({ entity: name, paper: p });
  const { data, error, isPending } = useGetOne(resource ?? '-', { id }, { enabled: !!resource && !!id });
  const rowName = useRecordName(entity, data);
  if (!entity || !resource) return <NotFound />;
  const title = !data
    ? translate('admin.print.print')
    : passport
      ? `${translate('admin.print.passport_title')} — ${titleOf(entity, data, lang)}`
      : printHeading(translate(model.captionOf.get(resource) ?? entity.caption), rowName, data.id).title;
  return (
    <PrintFrame title={title} paper={paper} orientation={passport ? 'portrait' : orientationOf(entity.fields)} onPaper={setPaper}>
      {isPending && (
        <Box role="status" sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={translate('admin.report.loading')} />
        </Box>
      )}
      {error ? <Alert severity="error">{errorMessage(error)}</Alert> : null}
      {data &&
        (passport ? (
          <TreePassport entity={entity} record={data} paper={paper} />
        ) : (
          <GenericPrint entity={entity} record={data} resource={resource} />
        ))}
    </PrintFrame>
  );
}
