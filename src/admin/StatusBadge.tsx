// The ONE status badge: a chip with the status's French label. Settings pass the label of the declared choice
// ('✅ Activé'), the PEC screens their own label, colour and pulse. data-status carries the raw value for tests and styles.
import { Chip, keyframes, type ChipProps } from '@mui/material';

// A ring around the chip fades in and out: its text keeps full contrast (fading the whole chip made it unreadable), and
// an opacity animation runs on the compositor, not on the page's main thread.
const pulse = keyframes`0%, 100% { opacity: 0; } 50% { opacity: 1; }`;

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
              position: 'relative',
              '&::after': {
                content: '""',
                position: 'absolute',
                inset: -3,
                borderRadius: 'inherit',
                border: 2,
                borderColor: color === 'default' ? 'text.secondary' : `${color}.main`,
                pointerEvents: 'none',
                animation: `${pulse} 1.6s ease-in-out infinite`,
              },
              '@media (prefers-reduced-motion: reduce)': { '&::after': { animation: 'none', opacity: 0 } },
            }
          : {}),
      }}
    />
  );
}
