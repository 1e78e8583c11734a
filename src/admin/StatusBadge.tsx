// The ONE status badge: a chip with the status's French label. Settings pass the label of the declared choice
// ('✅ Activé'), the PEC screens their own label, colour and pulse. data-status carries the raw value for tests and styles.
// Styled by static class rules (src/layout/rowStyles.tsx): a list shows one on every row.
import { Chip, type ChipProps } from '@mui/material';
import { ROW_CLASSES } from '../layout/rowStyles';

interface StatusBadgeProps {
  status: string | null | undefined;
  label: string;
  color?: ChipProps['color'];
  variant?: ChipProps['variant'];
  size?: ChipProps['size'];
  /** A state still moving (a robot run): the chip breathes, unless the user asked for reduced motion. */
  pulsing?: boolean;
}

export function StatusBadge({ status, label, color = 'default', variant = 'outlined', size = 'small', pulsing }: StatusBadgeProps) {
  return (
    <Chip
      label={label}
      size={size}
      color={color}
      variant={variant}
      className={ROW_CLASSES.status}
      data-testid="status-badge"
      data-status={status ?? ''}
      data-color={color}
      data-pulsing={pulsing ? 'true' : undefined}
    />
  );
}
