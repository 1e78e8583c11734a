// A billing result (the invoice sent to the insurer) on the file.
import { todayInFrance } from '#domain/pec';
import type { BillingCallback } from '#domain/pecSchemas';
import { restorePrevious, settle, type ResultEffect, type ResultStep } from './steps';

export function applyBillingResult(billing: BillingCallback, step: ResultStep, effect: ResultEffect): void {
  if (step.success) {
    effect.changes.statutFacturation = true;
    effect.changes.dateFacturationEffective = billing.date_facturation_effective ?? todayInFrance(step.now);
    settle(effect, step.d, 'billed', ['approved', 'processing', 'pending']);
  } else restorePrevious(effect, step);
}
