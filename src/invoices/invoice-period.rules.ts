/**
 * Service periods of invoice lines (spec "Invoice" Line `period_start`/`period_end`, pretix 2025.x; pretix
 * `_service_period_for_position` with its default setting `invoice_period` = `auto`). Datetimes are `Date`s here;
 * the lines store UTC ISO strings.
 */

/** A service period; `end` null only for a fee of an event without end date (pretix keeps it null too). */
export interface Period {
  start: Date;
  end: Date | null;
}

/** What a position's period is decided from. */
export interface PositionPeriodInput {
  validFrom: Date | null;
  validUntil: Date | null;
  /** The position's sub-event dates (a series), else null. */
  subevent: { from: Date; to: Date | null } | null;
}

/** The invoice's context: the event, the order's creation time and the time the invoice is made. */
export interface PeriodContext {
  hasSubevents: boolean;
  eventFrom: Date;
  eventTo: Date | null;
  orderDatetime: Date;
  now: Date;
}

/**
 * pretix `auto`: the position's validity (`valid_from`..`valid_until`; only one of them: that one, or from the
 * order time when only `valid_until` is set), else in a series the sub-event's dates (the invoice time without
 * one), else the event's dates; an end that is missing is the start.
 */
export function positionPeriod(p: PositionPeriodInput, ctx: PeriodContext): { start: Date; end: Date } {
  let start: Date;
  let end: Date | null;
  if (p.validFrom && p.validUntil) {
    start = p.validFrom;
    end = p.validUntil;
  } else if (p.validFrom) {
    start = end = p.validFrom;
  } else if (p.validUntil) {
    start = ctx.orderDatetime < p.validUntil ? ctx.orderDatetime : p.validUntil;
    end = p.validUntil;
  } else if (ctx.hasSubevents) {
    start = p.subevent ? p.subevent.from : ctx.now;
    end = p.subevent ? p.subevent.to : ctx.now;
  } else {
    start = ctx.eventFrom;
    end = ctx.eventTo;
  }
  return { start, end: end ?? start };
}

/**
 * The period of fee lines: the earliest start of the position lines and the earliest of their ends (pretix
 * takes `min` for both); without position lines the event's dates (not a series) or the invoice time.
 */
export function feePeriod(positionPeriods: readonly { start: Date; end: Date }[], ctx: PeriodContext): Period {
  if (positionPeriods.length > 0) {
    const min = (ds: Date[]) => new Date(Math.min(...ds.map((d) => d.getTime())));
    return {
      start: min(positionPeriods.map((p) => p.start)),
      end: min(positionPeriods.map((p) => p.end)),
    };
  }
  if (!ctx.hasSubevents) return { start: ctx.eventFrom, end: ctx.eventTo };
  return { start: ctx.now, end: ctx.now };
}
