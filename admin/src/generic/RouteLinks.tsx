import ListIcon from '@mui/icons-material/List';
import { Button, useRecordContext } from 'react-admin';
import { Link } from 'react-router-dom';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { useScreens } from './extensions';

/** Links from a row's page to the param routes that list its rows elsewhere ("its payments"), and to special screens about it. */
export function RouteLinks({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const model = useMeta();
  const screens = useScreens();
  if (!record) return null;
  const links: { to: string; caption: string; key: string }[] = [];
  for (const r of model.routes) {
    if (!r.allowed || r.params.length !== 1) continue;
    const param = r.params[0];
    const path = `/${r.path.replace(`:${param}`, String(record.id))}`;
    if (r.kind === 'param-list') {
      const other = model.byName.get(r.entity!);
      const [field] = Object.entries(r.filter ?? {}).find(([, v]) => v === `:${param}`) ?? [];
      const f = field && other ? other.fields.find((x) => x.name === field) : undefined;
      if (f?.type === 'ref' && f.ref === entity.name) links.push({ to: path, caption: r.caption, key: r.path });
    } else if (r.kind === 'screen' && screens[r.path]?.linkFrom === entity.name) {
      links.push({ to: path, caption: screens[r.path].linkLabel ?? r.caption, key: r.path });
    }
  }
  return (
    <>
      {links.map((l) => (
        <Button
          key={l.key}
          label={l.caption}
          component={Link}
          to={l.to}
          data-testid={`route-link-${l.key.split('/').slice(0, -1).join('-')}`}
        >
          <ListIcon />
        </Button>
      ))}
    </>
  );
}
