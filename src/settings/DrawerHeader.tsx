import { Stack } from '@mui/material';
import type { ReactNode } from 'react';

/** Title and ID on the left, the actions on the right: at the top, where no toast can cover them. */
export function DrawerHeader({ heading, actions }: { heading: ReactNode; actions: ReactNode }) {
  return (
    <Stack
      direction="row"
      alignItems="flex-start"
      justifyContent="space-between"
      spacing={1}
      sx={{ px: 3, pt: 2.5, pb: 1.5, borderBottom: 1, borderColor: 'divider', flexWrap: 'wrap', rowGap: 1 }}
    >
      {heading}
      <Stack direction="row" spacing={1} alignItems="center">
        {actions}
      </Stack>
    </Stack>
  );
}
