import PrintIcon from '@mui/icons-material/Print';
import { Button, useRecordContext } from 'react-admin';
import { Link } from 'react-router-dom';
import type { EntityMeta } from '../meta/types';
import { hasPassport, printPath } from './passport';

/** On a row's page: "Print passport" for trees, "Print" for other documents; opens the print page. */
export function PrintButton({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  if (!record) return null;
  const passport = hasPassport(entity.name);
  if (!passport && entity.kind !== 'document') return null;
  return (
    <Button
      label={passport ? 'admin.print.passport' : 'admin.print.print'}
      component={Link}
      to={printPath(entity.name, record.id)}
      data-testid={passport ? 'print-passport' : 'print-record'}
    >
      <PrintIcon />
    </Button>
  );
}
