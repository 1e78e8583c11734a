// The ONE pagination of the lists (settings and PEC): 'N résultats', 'Page x / y', Précédent / Suivant, read from the
// react-admin list context. Changing page drops the selection: a bulk action only ever acts on the rows in view.
// Usage: <List pagination={<Pagination />}> or inside any ListContext.
import { Box, Button, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
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
        <PageButton inert={page <= 1 || !!isFetching} onClick={() => goTo(page - 1)}>
          {translate('pecflow.settings.list.previous')}
        </PageButton>
        <Typography variant="body2" data-testid={`${testId}-page`}>
          {translate('pecflow.settings.list.page', { page, pages })}
        </Typography>
        <PageButton inert={page >= pages || !!isFetching} onClick={() => goTo(page + 1)}>
          {translate('pecflow.settings.list.next')}
        </PageButton>
      </Box>
    </Stack>
  );
}

/**
 * Précédent / Suivant: while a page is read, or at the list's ends, inert but still focusable (aria-disabled, drawn
 * disabled by the theme): a disabled button, the one just pressed, dropped the focus to the page.
 */
function PageButton({ inert, onClick, children }: { inert: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <Button size="small" aria-disabled={inert || undefined} onClick={inert ? undefined : onClick}>
      {children}
    </Button>
  );
}
