import { ErrorCollector } from '../../common/errors';
import { parseDateTime, parseDateTimeOrNull } from '../../common/values/datetime';

/** pretix's messages for the date rules of a sub-event (compat §3.17 "Validation"). */
export const SUBEVENT_MESSAGES = {
  endBeforeStart: 'The event cannot end before it starts.',
  presaleEndBeforeStart: "The event's presale cannot end before it starts.",
  notSeries: 'Sub-events can only be created for event series.',
  hasOrders:
    "The sub-event can not be deleted as it has already been used in orders. Please set 'active' to false instead to hide it from users.",
};

/**
 * Adds the cross-field date errors of a date (compat §3.17): `date_to` before `date_from`, `presale_end` before
 * `presale_start` (both `non_field_errors`; equal instants are fine). Datetimes as ISO 8601 strings.
 */
export function checkDates(
  errors: ErrorCollector,
  input: {
    date_from: string;
    date_to: string | null;
    presale_start: string | null;
    presale_end: string | null;
  },
): void {
  const to = parseDateTimeOrNull(input.date_to);
  if (to && to < parseDateTime(input.date_from)) errors.addNonField(SUBEVENT_MESSAGES.endBeforeStart);
  const ps = parseDateTimeOrNull(input.presale_start);
  const pe = parseDateTimeOrNull(input.presale_end);
  if (ps && pe && pe < ps) errors.addNonField(SUBEVENT_MESSAGES.presaleEndBeforeStart);
}
