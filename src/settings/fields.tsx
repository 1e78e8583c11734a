// Small displays shared by the settings screens.
import { Alert, AlertTitle, Button, Chip } from '@mui/material';
import { useTranslate } from 'react-admin';

const STATUS_COLORS: Record<string, 'success' | 'default' | 'warning'> = { Active: 'success', Inactive: 'default', Locked: 'warning' };

/** "✅ Activé", "❌ Désactivé", "🔒 Bloqué" (spec section 4). */
export function StatusBadge({ status }: { status: unknown }) {
  const translate = useTranslate();
  if (typeof status !== 'string' || !status) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATUS_COLORS[status] ?? 'default'}
      label={translate(`pecflow.settings.status.${status}`, { _: status })}
      data-testid="status-badge"
    />
  );
}

/** A translated label for an enumeration value (software type, environment...). */
export function ChoiceLabel({ prefix, value }: { prefix: string; value: unknown }) {
  const translate = useTranslate();
  if (typeof value !== 'string' || !value) return null;
  return <>{translate(`pecflow.settings.${prefix}.${value}`, { _: value })}</>;
}

/** A load that failed: the title, the sentence, and "Réessayer" (spec section 8). */
export function LoadError({ title, text, onRetry }: { title: string; text: string; onRetry: () => void }) {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {translate('pecflow.settings.list.retry')}
        </Button>
      }
    >
      <AlertTitle>{title}</AlertTitle>
      {text}
    </Alert>
  );
}

/** The name of an embedded reference, or a French fallback when there is none ("Non défini", "Plateforme"). */
export function NameOr({ value, fallback }: { value: unknown; fallback: string }) {
  const translate = useTranslate();
  const name = (value as { name?: unknown } | null | undefined)?.name;
  return <>{typeof name === 'string' && name ? name : translate(fallback)}</>;
}
