// Files the robot failed on recently: the dashboard's "Échecs robot" figure and the PEC list filter behind its link
// (`robotFailedWithinDays=7`) share this one condition, so the figure and the list always agree.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { pecDossiers, workflowExecutions } from '../db/schema';
import { fileColumn } from './warnings';
import { ROBOT_FAILURE_WINDOW_DAYS } from '#domain/limits';

const ROBOT_FAILURE_OUTCOMES = ['error', 'timeout'];
const outcomesList = sql.raw(ROBOT_FAILURE_OUTCOMES.map((outcome) => `'${outcome}'`).join(', '));
/** The longest window the filter accepts (a year). */
const MAX_DAYS = 366;

/** Files with at least one robot run that ended in an error or a timeout within the last `days` days. */
export function robotFailedWithin(days: number) {
  return sql`exists (select 1 from ${workflowExecutions} where ${and(
    eq(workflowExecutions.dossierId, pecDossiers.id),
    inArray(workflowExecutions.outcome, ROBOT_FAILURE_OUTCOMES),
    sql`${workflowExecutions.completedAt} >= now() - make_interval(days => ${days}::int)`,
  )})`;
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
 */
export const lastRobotFailureJson = sql`(select case when e.outcome in (${outcomesList})
      and e.completed_at >= now() - make_interval(days => ${sql.raw(String(ROBOT_FAILURE_WINDOW_DAYS))})
    then json_build_object('kind', case when e.run_kind = 'billing' or e.callback_type like 'billing%' then 'billing' else 'dpec' end,
      'messages', coalesce(e.robot_response -> 'messages', '[]'::jsonb), 'at', e.completed_at) end
  from workflow_executions e where e.dossier_id = ${fileColumn('id')} and e.completed_at is not null
  order by e.started_at desc limit 1)`;
