// The ONE form system (settings and PEC): react-admin's <Form> validated by a shared zod schema (zodResolver, checked
// on change), the server's French violations under their fields, and at most ONE toast per refused save: the save's
// own 'Erreur – {reason}' when the server refused it; when the browser did, 'Erreur – Le formulaire n’est pas valide.'
// for a long form only (`invalidToast`: a drawer's, whose field in error may be out of view; withdrawn once the form
// is corrected), a dialog's fields saying it alone (react-admin's own invalid-form notification is off: it stacked a second toast over the server's).
// Inside a drawer, a form holding changes not saved makes the drawer ask before it closes, and its « Annuler »
// (CancelButton) before it drops them (src/admin/unsavedChanges.ts).
// Usage: <AdminForm record={initial} schema={zodSchema} onSave={async (values) => { await mutate(...) }}>inputs…</AdminForm>
// `onSave` throws the refusal (an HttpError): its violations go under the fields; the toast is the mutation's.
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@mui/material';
import { useContext, useEffect, useId, useMemo, useRef, type ComponentType, type ReactNode, type RefObject } from 'react';
import { useFormState, type Resolver } from 'react-hook-form';
import { Form, useTranslate, type RaRecord } from 'react-admin';
import type { ZodType } from 'zod';
import { useToast } from '../layout/Toasts';
import { UnsavedChangesContext, useConfirmDiscard } from './unsavedChanges';
import { violationsOf } from './violations';
import { useSingleFlight } from './mutations';

/**
 * A record refetched while the form is open keeps what the user typed. One object for every render: react-admin resets
 * the form whenever this option changes, which would also wipe the server's violations.
 */
const RESET_OPTIONS = { keepDirtyValues: true };

interface AdminFormProps {
  record: Partial<RaRecord>;
  schema?: ZodType;
  onSave: (values: Record<string, unknown>) => Promise<unknown>;
  id?: string;
  className?: string;
  /** A save the browser refuses is also said in a toast: for a form taller than the screen (a drawer's). */
  invalidToast?: boolean;
  children: ReactNode;
}

export function AdminForm({ record, schema, onSave, id, className, invalidToast = false, children }: AdminFormProps) {
  // raw: the form keeps what was typed (IRIs, text); the API applies the same schema and stores its output.
  const resolver = useMemo(() => (schema ? (zodResolver(schema as never, undefined, { raw: true }) as unknown as Resolver) : undefined), [schema]);
  const reachedServerRef = useRef(false);
  // One save at a time: a double click (or Enter held) submits the form again before its button is disabled, which
  // sent a billing twice (its second run refused, a success and a failure said together).
  const once = useSingleFlight();
  const submit = async (values: Record<string, unknown>) => {
    reachedServerRef.current = true;
    try {
      await once(() => onSave(values));
      return undefined;
    } catch (error) {
      return violationsOf(error) ?? {};
    }
  };
  return (
    <Form
      record={record}
      resolver={resolver}
      mode="onChange"
      onSubmit={submit}
      resetOptions={RESET_OPTIONS}
      sanitizeEmptyValues={false}
      disableInvalidFormNotification
      noValidate
      id={id}
      className={className}
    >
      {invalidToast && <InvalidSubmitToast reachedServerRef={reachedServerRef} />}
      <TellUnsaved />
      {children}
    </Form>
  );
}

/**
 * 'Erreur – Le formulaire n’est pas valide.' once for a submit the browser refused (the server's refusals toast on their
 * own), withdrawn as soon as it is no longer true: once the form is corrected.
 */
function InvalidSubmitToast({ reachedServerRef }: { reachedServerRef: RefObject<boolean> }) {
  const translate = useTranslate();
  const toast = useToast();
  const { submitCount, isSubmitting, errors } = useFormState();
  const valid = Object.keys(errors).length === 0;
  const seen = useRef(0);
  const shown = useRef<AbortController | undefined>(undefined);
  useEffect(() => {
    if (isSubmitting || submitCount === seen.current) return;
    seen.current = submitCount;
    if (!reachedServerRef.current && !valid) {
      shown.current?.abort();
      shown.current = new AbortController();
      toast.error(translate('pecflow.settings.toast.error'), translate('ra.message.invalid_form'), { until: shown.current.signal });
    }
    reachedServerRef.current = false;
  }, [submitCount, isSubmitting, valid, reachedServerRef, toast, translate]);
  // Corrected, the form is no longer refused: its toast goes (before the save's own, not beside it).
  useEffect(() => {
    if (valid) shown.current?.abort();
  }, [valid]);
  return null;
}

/**
 * Tells the drawer around the form, if any, while a field differs from the record (react-hook-form's dirty fields, as
 * react-admin counts them). A save that succeeds closes the drawer, or unmounts or starts the form again: no more to tell.
 */
function TellUnsaved() {
  const mark = useContext(UnsavedChangesContext)?.mark;
  const form = useId();
  const { dirtyFields } = useFormState();
  const unsaved = Object.keys(dirtyFields).length > 0;
  useEffect(() => {
    if (!mark || !unsaved) return;
    mark(form, true);
    return () => mark(form, false);
  }, [mark, form, unsaved]);
  return null;
}

/** The submit button, disabled while the save runs; `Mark`, what it does (a mark of src/admin/ConfirmDialog.tsx). */
export function SubmitButton({ label, Mark }: { label: string; Mark?: ComponentType }) {
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" startIcon={Mark && <Mark />} disabled={isSubmitting}>
      {label}
    </Button>
  );
}

/** « Annuler »: in a drawer, asks « Abandonner les modifications ? » first while the form holds changes not saved. */
export function CancelButton({ label, onCancel }: { label: string; onCancel: () => void }) {
  const confirmDiscard = useConfirmDiscard();
  const { isSubmitting } = useFormState();
  return (
    <Button onClick={() => confirmDiscard(onCancel)} disabled={isSubmitting}>
      {label}
    </Button>
  );
}
