import type { FieldErrors } from '../common/errors';

/**
 * A seating plan's layout (compat §3.5; pretix's seating-plan JSON schema): the plan's `name`, its `categories`
 * (`name`, `color`), its `size` (`width`, `height`), and `zones` of `rows` of `seats`. Each seat has a
 * `seat_guid` unique within the plan, a `seat_number`, a `position` (`x`, `y`) and a `category` of the plan;
 * zones, rows and seats may carry labels. Unknown keys are kept (the schema still evolves).
 */
export interface SeatingLayout {
  name: string;
  categories: { name: string; color?: string }[];
  size: { width: number; height: number };
  zones: LayoutZone[];
  [key: string]: unknown;
}

export interface LayoutZone {
  name: string;
  position?: { x: number; y: number };
  rows: LayoutRow[];
  [key: string]: unknown;
}

export interface LayoutRow {
  row_number: string;
  row_label?: string | null;
  position?: { x: number; y: number };
  seats: LayoutSeat[];
  [key: string]: unknown;
}

export interface LayoutSeat {
  seat_guid: string;
  seat_number: string;
  seat_label?: string | null;
  position: { x: number; y: number };
  category: string;
  [key: string]: unknown;
}

/** One seat of a layout with its place, as the seats of an event are generated from it. */
export interface PlannedSeat {
  zoneName: string;
  rowName: string;
  rowLabel: string | null;
  seatNumber: string;
  seatLabel: string | null;
  seatGuid: string;
  category: string;
}

/** Most seats one plan may have (the seats of an event are generated from it in one statement per chunk). */
export const MAX_SEATS_PER_PLAN = 100_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/**
 * Longest zone, row, seat, label, guid and category name (the `seat` table's columns, where the seats of an event
 * are generated from the plan; README "Security": refused here, naming the place, not when an event takes the
 * plan).
 */
export const MAX_LAYOUT_NAME = 190;
/** Most problems reported (and collected) for one layout. */
const MAX_LAYOUT_ERRORS = 50;
const tooLong = (v: unknown): boolean => isString(v) && v.length > MAX_LAYOUT_NAME;
const TOO_LONG = `at most ${MAX_LAYOUT_NAME} characters.`;
/** Row and seat numbers may come as strings or numbers (pretix's editor writes both). */
const isLabel = (v: unknown): v is string | number => (isString(v) && v !== '') || isNumber(v);

/**
 * Checks a layout against the schema.
 * @returns the problems, each naming its place (`zones[0].rows[2].seats[5].seat_guid: ...`); empty when valid
 */
export function layoutErrors(layout: unknown): string[] {
  const errors: string[] = [];
  const at = (place: string, problem: string) => {
    if (errors.length < MAX_LAYOUT_ERRORS) errors.push(`${place}: ${problem}`);
  };
  if (!isObject(layout)) return ['layout: must be an object.'];
  if (!isString(layout.name) || layout.name === '') at('name', 'required, a non-empty string.');
  if (!isObject(layout.size) || !isNumber(layout.size.width) || !isNumber(layout.size.height)) {
    at('size', 'required, an object with numeric width and height.');
  }
  const categories = new Set<string>();
  if (!Array.isArray(layout.categories)) at('categories', 'required, a list.');
  else
    layout.categories.forEach((c: unknown, i) => {
      if (!isObject(c) || !isString(c.name) || c.name === '')
        at(`categories[${i}].name`, 'required, a string.');
      else if (tooLong(c.name)) at(`categories[${i}].name`, TOO_LONG);
      else if (categories.has(c.name)) at(`categories[${i}].name`, `"${c.name}" appears twice.`);
      else categories.add(c.name);
      if (isObject(c) && c.color !== undefined && !isString(c.color))
        at(`categories[${i}].color`, 'a string.');
    });
  if (!Array.isArray(layout.zones)) {
    at('zones', 'required, a list.');
    return errors;
  }
  const guids = new Set<string>();
  let seats = 0;
  layout.zones.forEach((zone: unknown, z) => {
    const zp = `zones[${z}]`;
    if (!isObject(zone)) return at(zp, 'must be an object.');
    if (!isString(zone.name)) at(`${zp}.name`, 'required, a string.');
    else if (tooLong(zone.name)) at(`${zp}.name`, TOO_LONG);
    if (!Array.isArray(zone.rows)) return at(`${zp}.rows`, 'required, a list.');
    zone.rows.forEach((row: unknown, r) => {
      const rp = `${zp}.rows[${r}]`;
      if (!isObject(row)) return at(rp, 'must be an object.');
      if (!isLabel(row.row_number)) at(`${rp}.row_number`, 'required, a string or number.');
      else if (tooLong(row.row_number)) at(`${rp}.row_number`, TOO_LONG);
      if (tooLong(row.row_label)) at(`${rp}.row_label`, TOO_LONG);
      if (row.row_label !== undefined && row.row_label !== null && !isString(row.row_label)) {
        at(`${rp}.row_label`, 'a string or null.');
      }
      if (!Array.isArray(row.seats)) return at(`${rp}.seats`, 'required, a list.');
      row.seats.forEach((seat: unknown, s) => {
        const sp = `${rp}.seats[${s}]`;
        seats++;
        if (!isObject(seat)) return at(sp, 'must be an object.');
        if (!isString(seat.seat_guid) || seat.seat_guid === '') at(`${sp}.seat_guid`, 'required, a string.');
        else if (tooLong(seat.seat_guid)) at(`${sp}.seat_guid`, TOO_LONG);
        else if (guids.has(seat.seat_guid))
          at(`${sp}.seat_guid`, `"${seat.seat_guid}" is not unique in the plan.`);
        else guids.add(seat.seat_guid);
        if (!isLabel(seat.seat_number)) at(`${sp}.seat_number`, 'required, a string or number.');
        else if (tooLong(seat.seat_number)) at(`${sp}.seat_number`, TOO_LONG);
        if (tooLong(seat.seat_label)) at(`${sp}.seat_label`, TOO_LONG);
        if (seat.seat_label !== undefined && seat.seat_label !== null && !isString(seat.seat_label)) {
          at(`${sp}.seat_label`, 'a string or null.');
        }
        if (!isObject(seat.position) || !isNumber(seat.position.x) || !isNumber(seat.position.y)) {
          at(`${sp}.position`, 'required, an object with numeric x and y.');
        }
        if (!isString(seat.category)) at(`${sp}.category`, 'required, a string.');
        else if (!categories.has(seat.category))
          at(`${sp}.category`, `"${seat.category}" is not a category of the plan.`);
      });
    });
  });
  if (seats > MAX_SEATS_PER_PLAN) at('zones', `more than ${MAX_SEATS_PER_PLAN} seats.`);
  return errors;
}

/** The layout problems as a 400 body on `layout` (compat §1.5), or null when valid. */
export function layoutFieldErrors(layout: unknown): FieldErrors | null {
  const errors = layoutErrors(layout);
  return errors.length === 0 ? null : { layout: errors.slice(0, 50) };
}

/** The seats of a valid layout, in plan order. */
export function plannedSeats(layout: SeatingLayout): PlannedSeat[] {
  return layout.zones.flatMap((zone) =>
    zone.rows.flatMap((row) =>
      row.seats.map((seat) => ({
        zoneName: zone.name,
        rowName: String(row.row_number),
        rowLabel: row.row_label ?? null,
        seatNumber: String(seat.seat_number),
        seatLabel: seat.seat_label ?? null,
        seatGuid: seat.seat_guid,
        category: seat.category,
      })),
    ),
  );
}
