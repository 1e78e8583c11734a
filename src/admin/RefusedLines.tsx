// A CSV refused as a whole (PEC import, payment statement): the reason, then each refused line with its messages,
// in a box that scrolls when the list is long. One alert for both imports.
import { Alert, AlertTitle, Box, List, ListItem, ListItemText } from '@mui/material';
import { useTranslate } from 'react-admin';

export interface RefusedLine {
  line: number;
  messages: string[];
}

export function RefusedLines({ message, lines, testId, sx }: { message: string; lines: RefusedLine[]; testId: string; sx?: object }) {
  const translate = useTranslate();
  return (
    <Alert severity="error" sx={sx} data-testid={testId}>
      <AlertTitle>{message}</AlertTitle>
      {lines.length > 0 && (
        <Box sx={{ maxHeight: 260, overflowY: 'auto' }}>
          <List dense disablePadding>
            {lines.map((line) => (
              <ListItem key={line.line} disableGutters>
                <ListItemText primary={translate('pecflow.csvLine', { line: line.line })} secondary={line.messages.join(' ; ')} />
              </ListItem>
            ))}
          </List>
        </Box>
      )}
    </Alert>
  );
}
