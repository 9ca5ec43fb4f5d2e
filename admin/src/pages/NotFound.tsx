import SearchOff from '@mui/icons-material/SearchOff';
import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { StatusPage } from './StatusPage';

/** 404: a route the system does not know. */
export function NotFound() {
  const translate = useTranslate();
  const { pathname } = useLocation();
  return (
    <StatusPage
      testId="page-404"
      code="404"
      icon={<SearchOff />}
      title={translate('admin.errors.not_found_title')}
      text={translate('admin.errors.not_found_text', { path: `#${pathname}` })}
    />
  );
}
