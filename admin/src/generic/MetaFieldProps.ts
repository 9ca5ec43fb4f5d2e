import type { FieldMeta } from '../meta/types';

/**
 * What a component showing one value of the current record takes: MetaField, a special screen's
 * view of a field (extensions.ts `fieldViews`), the view AuditValue and JsonTable are handed.
 */
export interface MetaFieldProps {
  field: FieldMeta;
  /** for Datagrid's header: the sort key and the caption key */
  source: string;
  label?: string;
  sortable?: boolean;
  inList?: boolean;
  textAlign?: 'left' | 'right';
}
