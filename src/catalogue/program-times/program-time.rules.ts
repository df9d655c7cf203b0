import { parseDateTime } from '../../common/values/datetime';

/** pretix's refusal of program times on an event series (`ItemProgramTime.clean`, the nested view). */
export const SERIES_REFUSED = 'You cannot use program times on an event series.';

/** pretix's message when a program time ends before it starts (`ItemProgramTime.clean_start_end`). */
export const END_BEFORE_START = 'The program end must not be before the program start.';

/**
 * The start/end rule of a program time: the end must not lie before the start (equal is fine).
 * @param start ISO 8601 datetime string
 * @param end ISO 8601 datetime string
 * @returns {@link END_BEFORE_START}, or null when fine
 */
export function programTimeProblem(start: string, end: string): string | null {
  return parseDateTime(start) > parseDateTime(end) ? END_BEFORE_START : null;
}
