// /payment_statements/create, 'Importer un relevé de paiement' (issues 15 and 25): choose the insurer's CSV, read its
// preview (each line matched to a billed file with its outcome, and the totals; nothing written; a statement applied
// already says so, "Relevé déjà importé le …", and cannot be applied again), then 'Appliquer': the statement is applied
// all or nothing and opens with its result; refused because the statement no longer gives its preview's result, the
// preview is read again and the toast names the lines whose result changed. Both calls are data-provider methods
// (useMutation). The page opens with the
// focus on its title (the list's button that led here is gone); once the file is read, it goes to the preview's
// heading (or to the refusal): the chooser's button, disabled meanwhile, has lost it. While the statement is applied it
// is on a status (« Application du relevé… »: « Appliquer » is disabled, the confirmation closed), then on the title of
// the statement's drawer, which opens at once (its page is preloaded): never the page's body. A line paid far above
// what its file was to receive (a typo in the insurer's file: paymentLineWarning) is marked in the preview, an alert
// above counts them, and 'Appliquer' asks to confirm them first (« Appliquer quand même »), which the server requires.
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CheckIcon from '@mui/icons-material/Check';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Alert, AlertTitle, Box, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { focusOnShow } from '../admin/focusOnShow';
import { ApplyMark, ConfirmDialog } from '../admin/ConfirmDialog';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useRequireAccess, type TranslateFunction } from 'react-admin';
import { PageTitle } from '../layout/PageTitle';
import { preloadPage } from '../pageLoaders';
import { download, pecNumericId, type PaymentPreview, type PaymentStatementRecord } from '../dataProvider/pec';
import { todayInFrance } from '#domain/pec';
import { formatEuros } from '#domain/format';
import type { ImportErrors } from '#domain/pecAnswers';
import {
  APPLIED_OUTCOMES,
  PAYMENT_STATEMENT_LIMITS,
  recordsSomething,
  STATEMENT_COLUMNS,
  STATEMENT_MESSAGES,
  STATEMENT_TEMPLATE_NAME,
  statementPeriodText,
  statementTemplate,
  type PaymentLine,
} from '#domain/payments';
import { PaymentLines, PaymentTotalsView } from './PaymentLines';
import { RefusedLines } from '../admin/RefusedLines';
import { statementPath, STATEMENTS_PATH } from './filters';
import { JUST_APPLIED, useRefreshPayments } from './PaymentStatementsPage';
import { statusOf, usePecMutation } from './shared';
import { useSingleFlight } from '../admin/mutations';
import { ImportShortcuts } from './PaymentShortcuts';

/** The lines a statement applied to files (paid, partial, over-paid): what its toast counts. */
const appliedLines = (statement: PaymentStatementRecord) =>
  APPLIED_OUTCOMES.reduce((count, outcome) => count + (statement.totals?.byOutcome[outcome]?.count ?? 0), 0);

export default function PaymentImportPage() {
  // The list's rule for its page (react-admin's access check): who may not import is sent to "Non autorisé".
  useRequireAccess({ resource: 'payment_statements', action: 'create' });
  const { translate, dataProvider, success, failure, errorText } = usePecMutation();
  const navigate = useNavigate();
  const refresh = useRefreshPayments();
  const input = useRef<HTMLInputElement>(null);
  // The statements' page, which an applied statement opens: loaded now, it then shows at once, with the focus its
  // drawer's title takes (a page still loading would hold the page's body focused meanwhile).
  useEffect(() => preloadPage(STATEMENTS_PATH), []);
  const [file, setFile] = useState<File | undefined>();
  const [refused, setRefused] = useState<{ message: string; lines: NonNullable<ImportErrors['errors']> } | undefined>();
  // « Appliquer » asked for the lines to be checked: « Appliquer quand même » or « Annuler ».
  const [confirming, setConfirming] = useState(false);
  // Applied, the statement's page is on its way (react-router renders it in a background render): the status keeps the
  // focus until then; gone with the mutation's end, it left the focus to the page's body meanwhile.
  const [leaving, setLeaving] = useState(false);
  const preview = useMutation({
    mutationFn: (chosen: File) => dataProvider.paymentPreview({ file: chosen }),
    onMutate: () => setRefused(undefined),
    onError: (error) => {
      const message = errorText(error).split('\n')[0] ?? '';
      setRefused({ message, lines: ((error as { body?: ImportErrors }).body?.errors ?? []).slice(0, 200) });
      failure(translate('pecflow.payments.import.refused'), error, message);
    },
    onSettled: () => {
      if (input.current) input.current.value = '';
    },
  });
  const apply = useMutation({
    mutationFn: ({ seen, amountsChecked }: { seen: PaymentPreview; amountsChecked: boolean }) =>
      dataProvider.paymentApply({ file: file!, fingerprint: seen.fingerprint, amountsChecked }),
    onSuccess: (statement) => {
      const pending = statement.totals?.pending.count ?? 0;
      success(
        translate('pecflow.payments.import.applied'),
        [
          translate('pecflow.payments.import.appliedText', { smart_count: appliedLines(statement) }),
          ...(pending ? [translate('pecflow.payments.import.pendingText', { smart_count: pending })] : []),
        ].join(' · '),
      );
      refresh();
      setLeaving(true);
      navigate(statementPath(pecNumericId(statement)!), { state: JUST_APPLIED });
    },
    onError: (error, { seen }) => {
      const title = translate('pecflow.payments.import.applyError');
      // Refused for what changed since the preview (the statement applied meanwhile, in another tab or by a colleague,
      // or a payment recorded that changes a line's outcome): the preview is read again, and says it as a fresh one
      // would ("Relevé déjà importé le …", nothing to apply, or the lines as they now are); the toast then names the
      // lines whose result changed ('Ligne 3 : Paiement partiel → Déjà enregistrée (…)'). Should the preview be
      // refused now, its own toast says why.
      if (statusOf(error) === 409 || statusOf(error) === 422) {
        preview.mutate(file!, {
          onSuccess: (fresh) => failure(title, error, [errorText(error), ...changedLines(seen.lines, fresh.lines, translate)].join('\n')),
        });
      } else failure(title, error);
    },
  });

  const once = useSingleFlight();
  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    setFile(chosen);
    preview.mutate(chosen);
  };
  const result = preview.data;
  const applying = apply.isPending || leaving;
  const busy = preview.isPending || applying;
  // The preview's lines to be checked: confirmed before the statement is applied.
  const toCheck = result?.lines.filter((line) => line.warning) ?? [];
  const send = (seen: PaymentPreview, amountsChecked: boolean) => void once(() => apply.mutateAsync({ seen, amountsChecked })).catch(() => undefined);

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }} data-testid="payment-import">
      <PageTitle title={translate('pecflow.payments.import.title')} />
      <ImportShortcuts />
      <Button startIcon={<ArrowBackIcon />} onClick={() => navigate(STATEMENTS_PATH)} sx={{ mb: 1 }}>
        {translate('pecflow.payments.list.title')}
      </Button>
      <Typography ref={focusOnShow} tabIndex={-1} variant="h5" component="h1" fontWeight={700}>
        {translate('pecflow.payments.import.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('pecflow.payments.import.text', {
          columns: Object.values(STATEMENT_COLUMNS)
            .map((c) => c.label)
            .join(', '),
          size: PAYMENT_STATEMENT_LIMITS.maxBytes / 1024 / 1024,
        })}
      </Typography>

      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
          {/* A real button that opens the file chooser: Entrée and Espace work (a label styled as a button did not). */}
          <Button variant="contained" startIcon={<UploadFileIcon />} disabled={busy} onClick={() => input.current?.click()}>
            {translate('pecflow.payments.import.choose')}
          </Button>
          <input ref={input} type="file" hidden accept=".csv,text/csv" data-testid="payment-file" onChange={(event) => choose(event.target.files?.[0])} />
          <Typography variant="body2" color="text.secondary" data-testid="payment-file-name">
            {file ? file.name : translate('pecflow.payments.import.noFile')}
          </Typography>
          {/* A file to start from, with every column as Pecflow names them: after « Choisir le fichier », the first Tab. */}
          <Button
            size="small"
            startIcon={<DownloadIcon />}
            sx={{ ml: { sm: 'auto' }, alignSelf: { xs: 'flex-start', sm: 'center' } }}
            onClick={() => download(new Blob([statementTemplate(todayInFrance())], { type: 'text/csv;charset=utf-8' }), STATEMENT_TEMPLATE_NAME)}
          >
            {translate('pecflow.payments.import.template')}
          </Button>
        </Stack>
      </Paper>

      {refused && (
        <Box ref={focusOnShow} tabIndex={-1} sx={{ mb: 2 }} data-testid="payment-refused-focus">
          <RefusedLines message={refused.message} lines={refused.lines} testId="payment-refused" />
        </Box>
      )}

      {result && !refused && (
        <Stack spacing={2} data-testid="payment-preview">
          <Box>
            <Typography ref={focusOnShow} tabIndex={-1} variant="h6" component="h2" fontWeight={700}>
              {translate('pecflow.payments.import.previewTitle')}
            </Typography>
            <Typography variant="body2" data-testid="payment-preview-identity">
              {statementIdentity(result)}
            </Typography>
          </Box>
          {result.alreadyImported ? (
            <Alert severity="warning" data-testid="payment-already-imported">
              <AlertTitle>{result.alreadyImported.message}</AlertTitle>
              {translate('pecflow.payments.import.alreadyImported')}{' '}
              <Link component={RouterLink} to={statementPath(result.alreadyImported.id)}>
                {translate('pecflow.payments.import.openImported')}
              </Link>
            </Alert>
          ) : recordsSomething(result.totals) ? (
            <Alert severity="info">{translate('pecflow.payments.import.previewText')}</Alert>
          ) : (
            <Alert severity="warning" data-testid="payment-nothing-to-apply">
              {STATEMENT_MESSAGES.nothingToApply}
            </Alert>
          )}
          {toCheck.length > 0 && !result.alreadyImported && (
            <Alert severity="warning" data-testid="payment-amounts-to-check">
              <AlertTitle>{translate('pecflow.payments.import.toCheckTitle', { smart_count: toCheck.length })}</AlertTitle>
              {translate('pecflow.payments.import.toCheckText', { smart_count: toCheck.length })}
            </Alert>
          )}
          <PaymentTotalsView totals={result.totals} />
          <PaymentLines lines={result.lines} />
          <Stack direction="row" spacing={2} alignItems="center">
            <Button
              variant="contained"
              color="success"
              startIcon={<CheckIcon />}
              disabled={busy || !recordsSomething(result.totals) || !!result.alreadyImported}
              onClick={() => (toCheck.length ? setConfirming(true) : send(result, false))}
              data-testid="payment-apply"
            >
              {translate('pecflow.payments.import.apply')}
            </Button>
            {/* « Appliquer » disabled (or the confirmation closed) lost the focus: it goes here until the statement opens. */}
            {applying && (
              <Typography ref={focusOnShow} tabIndex={-1} role="status" variant="body2" color="text.secondary" data-testid="payment-applying">
                {translate('pecflow.payments.import.applying')}
              </Typography>
            )}
          </Stack>
          {/* Destructive: it opens on « Annuler », so that Entrée, Entrée does not record an amount to be checked. */}
          <ConfirmDialog
            isOpen={confirming}
            loading={apply.isPending}
            title="pecflow.payments.import.toCheckConfirmTitle"
            content="pecflow.payments.import.toCheckConfirmText"
            contentTranslateOptions={{ smart_count: toCheck.length, lines: toCheck.map((line) => line.line).join(', ') }}
            confirm="pecflow.payments.import.toCheckConfirm"
            cancel="pecflow.payments.import.toCheckCancel"
            ConfirmIcon={ApplyMark}
            destructive
            onConfirm={() => {
              setConfirming(false);
              send(result, true);
            }}
            onClose={() => setConfirming(false)}
          />
        </Stack>
      )}
    </Box>
  );
}

/** The lines the toast names, then how many more. */
const CHANGED_LINES_SHOWN = 5;

/**
 * 'Ligne 3 : Paiement partiel → Déjà enregistrée (…)' for each line whose result the fresh preview changed (what the
 * apply's fingerprint compares: the outcome, the file reached, the amount still due or in excess).
 */
function changedLines(before: PaymentLine[], after: PaymentLine[], translate: TranslateFunction): string[] {
  const previewed = new Map(before.map((line) => [line.line, line]));
  const changes = after.flatMap((now) => {
    const then = previewed.get(now.line);
    if (!then || (then.outcomeLabel === now.outcomeLabel && then.dossier?.id === now.dossier?.id && then.difference === now.difference)) return [];
    // The same words: what differs is the file or the amount, said beside them.
    const words = (line: PaymentLine) =>
      then.outcomeLabel !== now.outcomeLabel
        ? line.outcomeLabel
        : [line.outcomeLabel, line.dossier?.numeroDossier, line.difference === null ? undefined : formatEuros(line.difference)].filter(Boolean).join(' · ');
    return [translate('pecflow.payments.import.changedLine', { line: now.line, before: words(then), after: words(now) })];
  });
  const more = changes.length - CHANGED_LINES_SHOWN;
  return more > 0 ? [...changes.slice(0, CHANGED_LINES_SHOWN), translate('pecflow.payments.import.changedMore', { smart_count: more })] : changes;
}

/** Who the statement is from, and its own number and period when its file gives them (as its columns name them). */
const statementIdentity = (preview: Pick<PaymentPreview, 'payer' | 'reference' | 'period'>) =>
  (
    [
      [STATEMENT_COLUMNS.payer.label, preview.payer],
      [STATEMENT_COLUMNS.statementNumber.label, preview.reference],
      [STATEMENT_COLUMNS.period.label, preview.period && statementPeriodText(preview.period)],
    ] as const
  )
    .filter(([, value]) => value)
    .map(([label, value]) => `${label} : ${value}`)
    .join(' · ');
