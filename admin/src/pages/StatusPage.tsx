import type { ReactNode } from 'react';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import HomeIcon from '@mui/icons-material/Home';
import { Title, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

/** The frame of the 403, 404, generic-error and not-built-yet pages. */
export function StatusPage({
  code,
  title,
  text,
  icon,
  actions,
  testId,
}: {
  code?: string;
  title: string;
  text: ReactNode;
  icon: ReactNode;
  actions?: ReactNode;
  testId: string;
}) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }} data-testid={testId}>
      <Title title={<>{title}</>} />
      <CardContent>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', py: 6, gap: 2 }}>
          <Box sx={{ color: 'text.disabled', '& svg': { fontSize: 72 } }}>{icon}</Box>
          {code && (
            <Typography variant="h2" color="text.secondary" sx={{ fontWeight: 300 }}>
              {code}
            </Typography>
          )}
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
          <Typography color="text.secondary" sx={{ maxWidth: 560 }}>
            {text}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
            {actions}
            <Button component={Link} to="/" variant="contained" startIcon={<HomeIcon />}>
              {translate('admin.action.home')}
            </Button>
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}
