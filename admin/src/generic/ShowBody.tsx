import { useState, type ReactNode } from 'react';
import { Box, Tab, Tabs } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { useMeta } from '../meta/store';
import type { RelatedList } from '../meta/model';
import type { EntityMeta } from '../meta/types';
import { EmbeddedList } from './EmbeddedList';
import { MainTab } from './MainTab';
import { RecordHistory } from './RecordHistory';
import { useExtension } from './extensions';

/**
 * A row's page: its fields and workflow history, and a tab for each list of rows that point at it
 * (a subject's branches, payments, reports, acts…) and each tab a special screen adds.
 */
export function ShowBody({ entity }: { entity: EntityMeta }) {
  const model = useMeta();
  const translate = useTranslate();
  const { showTabs = [] } = useExtension(entity.name);
  const record = useRecordContext();
  const [tab, setTab] = useState('main');
  const tabs: ShowTab[] = [{ key: 'main', label: 'admin.show.main', render: () => <MainTab entity={entity} /> }];
  // documents show what points at them; a reference book's page stays a card
  if (entity.kind === 'document') {
    for (const r of model.relatedLists(entity)) {
      tabs.push({ key: `rel-${r.entity.name}-${r.field}`, label: r.caption, render: () => <RelatedTab related={r} /> });
    }
  }
  for (const t of showTabs) tabs.push({ key: t.key, label: t.label, render: () => <t.Component entity={entity} /> });
  // every row's trail of changes, last; a log's rows (no version: never changed) have none
  if (!record || 'version' in record)
    tabs.push({ key: 'history', label: 'admin.history.title', render: () => <RecordHistory entity={entity} /> });
  const current = tabs.find((t) => t.key === tab) ?? tabs[0];
  if (tabs.length === 1) return <>{current.render()}</>;
  return (
    <>
      <Tabs
        value={current.key}
        onChange={(_ev, v: string) => setTab(v)}
        variant="scrollable"
        scrollButtons="auto"
        sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}
      >
        {tabs.map((t) => (
          <Tab key={t.key} value={t.key} label={translate(t.label)} data-testid={`show-tab-${t.key}`} />
        ))}
      </Tabs>
      <Box
        sx={{ pt: current.key === 'main' ? 0 : 2, px: current.key === 'main' ? 0 : 2, pb: current.key === 'main' ? 0 : 2 }}
        data-testid={`show-panel-${current.key}`}
      >
        {current.render()}
      </Box>
    </>
  );
}

function RelatedTab({ related }: { related: RelatedList }) {
  const record = useRecordContext();
  if (!record) return null;
  return <EmbeddedList resource={related.resource} filter={{ [related.field]: record.id }} />;
}

interface ShowTab {
  key: string;
  label: string;
  render: () => ReactNode;
}
