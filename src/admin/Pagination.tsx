// The ONE pagination of the lists (settings and PEC): 'N résultats', 'Page x / y', Précédent / Suivant, read from the
// react-admin list context. Changing page drops the selection: a bulk action only ever acts on the rows in view.
// Usage: <List pagination={<Pagination />}> or inside any ListContext.
import { Box, Button, Stack, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';

export function Pagination({ testId = 'pagination' }: { testId?: string }) {
  const translate = useTranslate();
  const { page, perPage, total = 0, setPage, isFetching, onUnselectItems } = useListContext();
  const pages = Math.max(1, Math.ceil(total / perPage));
  const goTo = (next: number) => {
    onUnselectItems?.();
    setPage(next);
  };
  return (
    <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mt: 1.5, flexWrap: 'wrap', gap: 1 }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {translate('pecflow.settings.list.results', { smart_count: total })}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Button size="small" disabled={page <= 1 || isFetching} onClick={() => goTo(page - 1)}>
          {translate('pecflow.settings.list.previous')}
        </Button>
        <Typography variant="body2" data-testid={`${testId}-page`}>
          {translate('pecflow.settings.list.page', { page, pages })}
        </Typography>
        <Button size="small" disabled={page >= pages || isFetching} onClick={() => goTo(page + 1)}>
          {translate('pecflow.settings.list.next')}
        </Button>
      </Box>
    </Stack>
  );
}
