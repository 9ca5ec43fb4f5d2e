import { Box } from '@mui/material';
import type { EntityMeta } from '../meta/types';
import { FilterChip } from './FilterChip';

/** What a `:params` list is narrowed to (it has no inputs for it): a chip per filter value. */
export function FixedFilterChips({ entity, filter }: { entity: EntityMeta; filter: Record<string, unknown> }) {
  const entries = Object.entries(filter).filter(([, v]) => v !== null && v !== undefined && v !== '');
  if (!entries.length) return null;
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2 }} data-testid="fixed-filters">
      {entries.map(([k, v]) => (
        <FilterChip key={k} entity={entity} name={k} value={Array.isArray(v) ? v.join(', ') : v} />
      ))}
    </Box>
  );
}
