import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { AutocompleteInput, Button, useRecordContext, useTranslate, type AutocompleteInputProps } from 'react-admin';
import { Link } from 'react-router-dom';
import { i18n } from '../i18n';
import { useMeta } from '../meta/store';
import type { MetaModel } from '../meta/model';
import type { FilterMeta } from '../meta/types';
import type { EntityExtension } from '../generic/extensions';
import type { MetaFieldProps } from '../generic/MetaFieldProps';
import { actionKey, entityOfEntry, NAMED_CHANGES } from '../generic/audit';

/**
 * The audit log (`audit-log`): its rows name an entity and an action by their code names, which
 * the metadata stores as plain strings. Here they show as the entity's caption and the action's
 * (in the list, on the page and in the filters), and a row's page links to the row it is about.
 * Its before and after are JSON fields: the generic page shows them side by side.
 */

const exists = (k: string) => i18n.exists(k);

/** The caption key of an entity by its name, when there is one. */
function entityCaptionKey(model: MetaModel, name: string): string | undefined {
  const key = model.byName.get(name)?.caption ?? `entity.${name}`;
  return exists(key) ? key : undefined;
}

/** The caption key of an action a row of the entity `entity` went through. */
function actionCaptionKey(model: MetaModel, entity: unknown, action: string): string | undefined {
  const a = entityOfEntry(model, entity)?.workflow?.actions.find((x) => x.name === action);
  return a && exists(a.label) ? a.label : actionKey(model, action, exists);
}

/** The `entity` column: the entity's caption. */
function EntityName({ field }: MetaFieldProps) {
  const record = useRecordContext();
  const model = useMeta();
  const translate = useTranslate();
  const name = record?.[field.name];
  if (typeof name !== 'string' || !name) return null;
  const key = entityCaptionKey(model, name);
  return <span data-value={name}>{key ? translate(key) : name}</span>;
}

/** The `action` column: the workflow action's or the named change's caption. */
function ActionName({ field }: MetaFieldProps) {
  const record = useRecordContext();
  const model = useMeta();
  const translate = useTranslate();
  const action = record?.[field.name];
  if (typeof action !== 'string' || !action) return null;
  const key = actionCaptionKey(model, record?.entity, action);
  return <span data-value={action}>{key ? translate(key) : action}</span>;
}

type ChoiceFilterProps = Omit<AutocompleteInputProps, 'choices'>;

/** The entity filter: a choice among the entities' captions. */
function EntityFilter(props: ChoiceFilterProps) {
  const model = useMeta();
  const translate = useTranslate();
  const choices = model.meta.entities
    .map((e) => ({ id: e.name, name: exists(e.caption) ? translate(e.caption) : e.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return <AutocompleteInput {...props} choices={choices} translateChoice={false} sx={{ minWidth: 260 }} data-testid="filter-entity" />;
}

/** The action filter: a choice among every workflow action and named change, by caption. */
function ActionFilter(props: ChoiceFilterProps) {
  const model = useMeta();
  const translate = useTranslate();
  const names = new Set<string>(NAMED_CHANGES);
  for (const e of model.meta.entities) for (const a of e.workflow?.actions ?? []) names.add(a.name);
  const choices = [...names]
    .map((n) => {
      const key = actionKey(model, n, exists);
      return { id: n, name: key ? translate(key) : n };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  return <AutocompleteInput {...props} choices={choices} translateChoice={false} sx={{ minWidth: 240 }} data-testid="filter-action" />;
}

/** On a row's page: the page of the row the change was made to (unless it was deleted, or is not the user's to read). */
function OpenAuditedRecord() {
  const record = useRecordContext();
  const model = useMeta();
  if (!record || record.op === 'delete' || typeof record.entity !== 'string') return null;
  const resource = model.resourceOf(record.entity);
  if (!resource || !model.listAllowed(resource)) return null;
  return (
    <Button
      label="admin.history.open_record"
      component={Link}
      to={model.showPath(resource, record.record_id)}
      data-testid="audit-open-record"
    >
      <OpenInNewIcon />
    </Button>
  );
}

export const AUDIT_LOG: EntityExtension = {
  fieldViews: { entity: EntityName, action: ActionName },
  filterInputs: {
    entity: (f: FilterMeta) => <EntityFilter key={f.name} source={f.name} label={f.label} alwaysOn={f.alwaysOn} />,
    action: (f: FilterMeta) => <ActionFilter key={f.name} source={f.name} label={f.label} alwaysOn={f.alwaysOn} />,
  },
  showActions: OpenAuditedRecord,
};

/** The personal-data reads screen: its entity by caption, filtered by caption, like the trail's. */
export const PERSONAL_DATA_READS: EntityExtension = {
  fieldViews: { entity: EntityName },
  filterInputs: {
    entity: (f: FilterMeta) => <EntityFilter key={f.name} source={f.name} label={f.label} alwaysOn={f.alwaysOn} />,
  },
};
