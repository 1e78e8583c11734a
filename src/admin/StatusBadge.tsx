// The ONE status badge: a chip with the status's French label. Settings pass the label of the declared choice
// ('✅ Activé'), the PEC screens their own label, colour and pulse. data-status carries the raw value for tests and styles.
import { Chip, keyframes, type ChipProps } from '@mui/material';

const pulse = keyframes`0%, 100% { opacity: 1; } 50% { opacity: 0.55; }`;

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
      data-testid="status-badge"
      data-status={status ?? ''}
      data-pulsing={pulsing ? 'true' : undefined}
      sx={{
        fontWeight: 600,
        ...(pulsing ? { animation: `${pulse} 1.6s ease-in-out infinite`, '@media (prefers-reduced-motion: reduce)': { animation: 'none' } } : {}),
      }}
    />
  );
}
