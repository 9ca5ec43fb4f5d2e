import { ResourceContextProvider } from 'react-admin';
import { EntityList } from './EntityList';

/** A list inside another page (a tab of a show page), under its own resource. */
export function EmbeddedList({ resource, filter }: { resource: string; filter: Record<string, unknown> }) {
  return (
    <ResourceContextProvider value={resource}>
      <EntityList permanentFilter={filter} embedded />
    </ResourceContextProvider>
  );
}
