// The audit trail's actions as its « Action » filter offers them: each option, the actions it selects.

/** The audit's name of each entity ("holding" in "holding.update"), as the API writes its actions. */
const AUDIT_NAMES: Record<string, string> = {
  holdings: 'holding',
  companies: 'company',
  shops: 'shop',
  users: 'user',
  roles: 'role',
  mutuals: 'mutual',
  networks: 'network',
  software: 'software',
  credential_software: 'credential',
  configs: 'system.setting',
  pec_dossiers: 'pec_dossier',
};

export const VERBS = ['create', 'update', 'delete', 'archive', 'restore', 'bulk_update', 'bulk_delete'] as const;

/** What the filter offers: the generic verbs over every entity, then the PEC files' own events. */
const PEC = (...events: string[]) => events.map((event) => `pec_dossier.${event}`);
export const ACTION_OPTIONS: { value: string; actions: string[] }[] = [
  ...VERBS.map((verb) => ({ value: verb, actions: Object.values(AUDIT_NAMES).map((name) => `${name}.${verb}`) })),
  { value: 'read', actions: PEC('read') },
  { value: 'export', actions: PEC('export') },
  { value: 'import', actions: PEC('import') },
  { value: 'robot_start', actions: PEC('dpec_start', 'billing_start') },
  { value: 'robot_result', actions: PEC('callback_scraping', 'callback_dpec', 'callback_billing') },
  { value: 'robot_failure', actions: PEC('run_error', 'run_timeout') },
  ...(['bulk_dpec', 'bulk_billing', 'bulk_archive', 'bulk_assign', 'summary'] as const).map((event) => ({ value: event, actions: PEC(event) })),
  // The money: the files' payments (recorded, cancelled, taken back), the statements, their lines handled by hand.
  { value: 'payments', actions: [...PEC('payment', 'payment_cancel', 'payment_undo', 'payment_detach'), 'pec_payment.cancel'] },
  { value: 'apply', actions: ['payment_statement.apply'] },
  { value: 'undo', actions: ['payment_statement.undo'] },
  {
    value: 'statement_lines',
    actions: ['line_attach', 'line_count', 'line_dismiss', 'line_reopen', 'line_detach'].map((event) => `payment_statement.${event}`),
  },
  // The accounts' security.
  { value: 'passwords', actions: ['user.password_change', 'user.password_reset_request', 'user.password_reset_refused'] },
  { value: 'two_factor', actions: ['user.two_factor_enable', 'user.two_factor_disable', 'user.two_factor_reset', 'user.recovery_code_used'] },
];
