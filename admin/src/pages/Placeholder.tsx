import Construction from '@mui/icons-material/Construction';
import { useTranslate } from 'react-admin';
import { StatusPage } from './StatusPage';

/** A menu route the user may open whose screen is not built yet (no entity in the metadata). */
export function Placeholder({ caption }: { caption: string }) {
  const translate = useTranslate();
  return (
    <StatusPage testId="page-placeholder" icon={<Construction />} title={translate(caption)} text={translate('admin.placeholder.text')} />
  );
}
