// The ONE status badge: a chip with the status's French label. Settings pass the label of the declared choice
// ('✅ Activé'), the PEC screens their own label, colour and pulse. data-status carries the raw value for tests and styles.
import { Chip, keyframes, type ChipProps } from '@mui/material';

// A ring that swells around the chip: its text keeps full contrast (fading the whole chip made it unreadable).
const pulse = keyframes`0%, 100% { box-shadow: 0 0 0 0 var(--pulse-ring); } 50% { box-shadow: 0 0 0 4px transparent; }`;

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
        ...(pulsing
          ? {
              '--pulse-ring': (theme) => (color === 'default' ? theme.palette.text.secondary : theme.palette[color].main),
              animation: `${pulse} 1.6s ease-in-out infinite`,
              '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
            }
          : {}),
      }}
    />
  );
}
