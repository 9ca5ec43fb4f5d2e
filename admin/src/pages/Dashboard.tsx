import { Box, Card, CardActionArea, CardContent, Grid, Skeleton, Typography } from '@mui/material';
import { Title, useGetIdentity, useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useMeta } from '../meta/store';
import { formatNumber } from '../generic/format';
import { DEFAULT_SECTION_ICON, iconFor } from '../layout/icons';

function CountCard({ resource, caption }: { resource: string; caption: string }) {
  const translate = useTranslate();
  const { total, isPending, error } = useGetList(resource, { pagination: { page: 1, perPage: 1 } });
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid={`dashboard-count-${resource}`}>
      <CardActionArea component={Link} to={`/${resource}`} sx={{ height: '100%' }}>
        <CardContent>
          <Typography variant="body2" color="text.secondary" gutterBottom sx={{ minHeight: 40 }}>
            {translate(caption)}
          </Typography>
          {isPending ? (
            <Skeleton width={80} height={36} />
          ) : (
            <Typography variant="h6" component="div" sx={{ fontWeight: 600 }}>
              {error ? '—' : translate('admin.dashboard.records', { total: formatNumber(total ?? 0, 0) })}
            </Typography>
          )}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** The start page: a welcome and the size of the first reference books the user may read. */
export function Dashboard() {
  const translate = useTranslate();
  const model = useMeta();
  const { identity } = useGetIdentity();
  // the reference books in menu order
  const references = model.meta.menu
    .flatMap((s) => s.children.map((c) => `${s.route}/${c.route}`.replace(/^\/+|\/+$/g, '')))
    .map((r) => [r, model.entity(r)] as const)
    .filter((x): x is readonly [string, NonNullable<(typeof x)[1]>] => !!x[1] && x[1].kind === 'reference')
    .slice(0, 8);
  const sections = model.meta.menu;
  return (
    <Box sx={{ mt: 2 }} data-testid="page-dashboard">
      <Title title="admin.menu.dashboard" />
      <Card sx={{ mb: 2, background: 'linear-gradient(120deg, #e8f5e9 0%, #ffffff 70%)' }}>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom data-testid="dashboard-welcome">
            {translate('admin.dashboard.welcome', { name: identity?.fullName ?? '' })}
          </Typography>
          <Typography color="text.secondary">
            {sections.length ? translate('admin.dashboard.intro') : translate('admin.dashboard.no_sections')}
          </Typography>
        </CardContent>
      </Card>
      {references.length > 0 && (
        <>
          <Typography variant="h6" sx={{ mb: 1 }}>
            {translate('admin.dashboard.references')}
          </Typography>
          <Grid container spacing={2} sx={{ mb: 3 }}>
            {references.map(([resource, e]) => (
              <Grid key={resource} size={{ xs: 12, sm: 6, md: 3 }}>
                <CountCard resource={resource} caption={model.captionOf.get(resource) ?? e.caption} />
              </Grid>
            ))}
          </Grid>
        </>
      )}
      <Grid container spacing={2}>
        {sections.map((s) => {
          const Icon = iconFor(s.icon, DEFAULT_SECTION_ICON);
          return (
            <Grid key={s.route} size={{ xs: 12, sm: 6, md: 4 }}>
              <Card variant="outlined" sx={{ height: '100%' }}>
                <CardContent sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
                  <Icon color="primary" />
                  <Box sx={{ minWidth: 0 }}>
                    <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{translate(s.caption)}</Typography>
                    {s.children.slice(0, 5).map((c) => (
                      <Typography key={c.route} variant="body2" noWrap>
                        <Link to={`${s.route}/${c.route.replace(/\/+$/, '')}`} style={{ color: 'inherit' }}>
                          {translate(c.caption)}
                        </Link>
                      </Typography>
                    ))}
                    {s.children.length > 5 && (
                      <Typography variant="body2" color="text.secondary">
                        …
                      </Typography>
                    )}
                  </Box>
                </CardContent>
              </Card>
            </Grid>
          );
        })}
      </Grid>
    </Box>
  );
}
