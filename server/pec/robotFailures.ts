// Files the robot failed on recently: the dashboard's "Échecs robot" figure and the PEC list filter behind its link
// (`robotFailedWithinDays=7`) share this one condition, so the figure and the list always agree.
import { sql } from 'drizzle-orm';
import { pecDossiers, workflowExecutions } from '../db/schema';
import { fileColumn } from './warnings';
import { ROBOT_FAILURE_WINDOW_DAYS } from '#domain/limits';

const outcomesList = sql.raw(['error', 'timeout'].map((outcome) => `'${outcome}'`).join(', '));
/** The longest window the filter accepts (a year). */
const MAX_DAYS = 366;

/**
 * A robot execution (aliased `e`) that ended in an error or a timeout within the last `days` days: the one rule of
 * the list filter and of a file's latest failure. The whole number of days is written into the text, so that the
 * list's member SQL (lastRobotFailureJson) keeps no parameter and is cached as text (server/hydra/listMembers.ts).
 */
const failedWithin = (days: number) =>
  sql`e.outcome in (${outcomesList}) and e.completed_at >= now() - make_interval(days => ${sql.raw(String(Math.trunc(days)))})`;

/** Files with at least one robot run that ended in an error or a timeout within the last `days` days. */
export function robotFailedWithin(days: number) {
  return sql`exists (select 1 from ${workflowExecutions} e where e.dossier_id = ${pecDossiers.id} and ${failedWithin(days)})`;
}

/** The list filter: a whole number of days from 1 to 366; anything else matches no file. */
export function robotFailedWithinFilter(value: string) {
  const days = /^\d{1,3}$/.test(value.trim()) ? Number(value) : NaN;
  return days >= 1 && days <= MAX_DAYS ? robotFailedWithin(days) : sql`false`;
}

/**
 * A file's latest finished robot run when it failed within the dashboard's window, as the list and the file read it:
 * `{kind: 'dpec'|'billing', messages, at}` (the screens shape the messages with shapeRobotError); null when its latest
 * run did not fail (a later success clears it). One index lookup per row of the page (workflow_executions_dossier_idx).
 * Its kind is robotRunKind's rule (domain/pec.ts) in SQL.
 */
export const lastRobotFailureJson = sql`(select case when ${failedWithin(ROBOT_FAILURE_WINDOW_DAYS)}
    then json_build_object('kind', case when e.run_kind = 'billing' or e.callback_type like 'billing%' then 'billing' else 'dpec' end,
      'messages', coalesce(e.robot_response -> 'messages', '[]'::jsonb), 'at', e.completed_at) end
  from workflow_executions e where e.dossier_id = ${fileColumn('id')} and e.completed_at is not null
  order by e.started_at desc limit 1)`;
