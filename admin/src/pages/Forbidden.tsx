import Block from '@mui/icons-material/Block';
import { useTranslate } from 'react-admin';
import { StatusPage } from './StatusPage';

/** 403: a route the system knows that the user's actions do not open. */
export function Forbidden({ caption }: { caption?: string }) {
  const translate = useTranslate();
  return (
    <StatusPage
      testId="page-403"
      code="403"
      icon={<Block />}
      title={translate('admin.errors.forbidden_title')}
      text={
        caption ? translate('admin.errors.forbidden_text', { page: translate(caption) }) : translate('admin.errors.forbidden_text_generic')
      }
    />
  );
}
