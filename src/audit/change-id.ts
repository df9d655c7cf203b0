/**
 * The id of a change (issue 27 §1): `chg_<log entry id>`. The change feed's `id` and the `webhook-id` header of
 * every webhook delivery of that change carry it, so a receiver de-duplicates the two against each other.
 */
export function changeIdOf(logEntryId: string | number): string {
  return `chg_${logEntryId}`;
}
