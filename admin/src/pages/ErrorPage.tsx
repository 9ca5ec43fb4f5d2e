import { Button } from '@mui/material';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';
import { StatusPage } from './StatusPage';

/** The generic error page: react-admin's error boundary shows it, and so does #/error. */
export function ErrorPage({ error, resetErrorBoundary }: { error?: unknown; resetErrorBoundary?: (args?: unknown) => void }) {
  const translate = useTranslate();
  if (error) console.error(error);
  return (
    <StatusPage
      testId="page-error"
      icon={<ErrorOutline />}
      title={translate('admin.errors.generic_title')}
      text={translate('admin.errors.generic_text')}
      actions={
        <Button
          variant="outlined"
          startIcon={<RefreshIcon />}
          onClick={() => (resetErrorBoundary ? resetErrorBoundary() : window.location.reload())}
        >
          {translate('admin.action.reload')}
        </Button>
      }
    />
  );
}
