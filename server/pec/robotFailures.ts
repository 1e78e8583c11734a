// Files the robot failed on recently: the dashboard's "Échecs robot" figure and the PEC list filter behind its link
// (`robotFailedWithinDays=7`) share this one condition, so the figure and the list always agree.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { pecDossiers, workflowExecutions } from '../db/schema';

const ROBOT_FAILURE_OUTCOMES = ['error', 'timeout'];
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
