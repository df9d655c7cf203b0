import type { FieldErrors } from '../../common/errors';
import { parseDateTime } from '../../common/values/datetime';
import type { ValidatedAnswer } from '../answers/answers.rules';
import type { OrderPosition } from '../entities/order-position.entity';
import { SALES_MESSAGES } from '../writing/sales.rules';
import { REFUSED_POSITION_FIELDS, UpdateOrderPositionDto } from './position-edit.dto';

/**
 * Pure rules of `PATCH E/orderpositions/{id}/` (pretix "Manipulating individual positions",
 * `OrderPositionInfoPatchSerializer`). Unit-tested in `position-edit.rules.spec.ts`.
 */

/** Countries whose addresses carry a state (pretix `COUNTRIES_WITH_STATE_IN_ADDRESS`). */
export const COUNTRIES_WITH_STATE = ['AU', 'BR', 'CA', 'CN', 'MY', 'MX', 'US'] as const;

/** Our message for a field pretix changes through its order change manager and this endpoint does not. */
export const REFUSED_FIELD =
  'This field cannot be changed through this endpoint. Use POST …/orders/{code}/change/ (patch_positions) instead.';

/** pretix's message for a state in a country without states. */
export const statesNotSupported = (country: string): string =>
  `States are not supported in country "${country}".`;

/** The attendee fields a PATCH writes, with their entity names. */
export const INFO_FIELDS = {
  attendee_email: 'attendeeEmail',
  company: 'company',
  street: 'street',
  zipcode: 'zipcode',
  city: 'city',
  country: 'country',
  state: 'state',
} as const satisfies Partial<Record<keyof UpdateOrderPositionDto, keyof OrderPosition>>;

/** The position's columns a PATCH may change. */
export type PositionInfo = Pick<
  OrderPosition,
  | 'attendeeNameParts'
  | 'attendeeEmail'
  | 'company'
  | 'street'
  | 'zipcode'
  | 'city'
  | 'country'
  | 'state'
  | 'validFrom'
  | 'validUntil'
>;

/**
 * Field errors of the body before anything is loaded: a refused field (first in {@link REFUSED_POSITION_FIELDS}
 * order), then `attendee_name` with `attendee_name_parts`, then a state in a country without states (the
 * country sent, else the position's).
 */
export function bodyErrors(body: UpdateOrderPositionDto, currentCountry: string | null): FieldErrors | null {
  const refused = REFUSED_POSITION_FIELDS.find((f) => body[f] !== undefined);
  if (refused) return { [refused]: [REFUSED_FIELD] };
  const parts = body.attendee_name_parts;
  if (body.attendee_name && parts && Object.keys(parts).length > 0) {
    return { attendee_name: [SALES_MESSAGES.nameTwice] };
  }
  if (body.state) {
    const country = (
      body.country !== undefined ? (body.country ?? '') : (currentCountry ?? '')
    ).toUpperCase();
    if (!(COUNTRIES_WITH_STATE as readonly string[]).includes(country)) {
      return { state: [statesNotSupported(country)] };
    }
  }
  return null;
}

/**
 * The position's columns after the PATCH: only fields sent change. A plain `attendee_name` is stored as
 * `{"_legacy": name}` (null or `""` clears the name); a country is upper-cased as on create.
 */
export function patchedInfo(current: PositionInfo, body: UpdateOrderPositionDto): PositionInfo {
  const next: PositionInfo = { ...current };
  if (body.attendee_name_parts !== undefined && body.attendee_name_parts !== null) {
    next.attendeeNameParts = body.attendee_name_parts;
  } else if (body.attendee_name !== undefined) {
    next.attendeeNameParts = body.attendee_name ? { _legacy: body.attendee_name } : {};
  } else if (body.attendee_name_parts === null) {
    next.attendeeNameParts = {};
  }
  for (const [wire, column] of Object.entries(INFO_FIELDS) as [
    keyof typeof INFO_FIELDS,
    keyof PositionInfo,
  ][]) {
    const value = body[wire];
    if (value === undefined) continue;
    (next as Record<string, unknown>)[column] =
      wire === 'country' && typeof value === 'string' ? value.toUpperCase() : value;
  }
  if (body.valid_from !== undefined)
    next.validFrom = body.valid_from === null ? null : parseDateTime(body.valid_from);
  if (body.valid_until !== undefined) {
    next.validUntil = body.valid_until === null ? null : parseDateTime(body.valid_until);
  }
  return next;
}

/** Whether the stored answers differ from the new ones (by question: text and options). */
export function answersChanged(
  before: readonly ValidatedAnswer[],
  after: readonly ValidatedAnswer[],
): boolean {
  const key = (list: readonly ValidatedAnswer[]) =>
    JSON.stringify(
      [...list]
        .map((a) => [a.questionId, a.answer, [...a.optionIds].sort((x, y) => x - y)] as const)
        .sort((x, y) => x[0] - y[0]),
    );
  return key(before) !== key(after);
}

/** The answers pretix keeps: those with a non-empty answer text, the first per question. */
export function keptAnswers(answers: readonly ValidatedAnswer[]): ValidatedAnswer[] {
  const seen = new Set<number>();
  return answers.filter((a) => {
    if (a.answer === '' || seen.has(a.questionId)) return false;
    seen.add(a.questionId);
    return true;
  });
}

/**
 * The data of the `pretix.event.order.modified` entry (pretix: `{"data": [{"position": id, ...sent fields}]}`,
 * answers flattened to `question_<id>: answer`).
 */
export function modifiedLogData(
  positionId: number,
  body: UpdateOrderPositionDto,
  answers: readonly ValidatedAnswer[] | null,
): Record<string, unknown> {
  const entry: Record<string, unknown> = { position: positionId };
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined || k === 'answers') continue;
    entry[k] = v;
  }
  for (const a of answers ?? []) entry[`question_${a.questionId}`] = a.answer;
  return { data: [entry] };
}
