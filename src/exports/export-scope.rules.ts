import { DateTime } from 'luxon';
import type { Principal } from '../auth/principal';
import type { Permission } from '../auth/permissions';
import { parseDateFrame } from './export-forms.rules';

/** An event as the scope rules need it. */
export interface ScopeEvent {
  id: number;
  slug: string;
  dateFrom: Date;
  timezone: string;
}

/** The permission an exporter needs on each event it covers (organizer-level: on the organizer). */
export const EXPORTER_PERMISSION: Record<string, { event?: Permission[]; organizer?: Permission[] }> = {
  orderlist: { event: ['event.orders:read'] },
  checkinlist: { event: ['event.orders:read', 'event.orders:checkin'] },
  voucherlist: { event: ['event.vouchers:read'] },
  quotas: { event: [] },
  giftcardlist: { organizer: ['organizer.giftcards:read'] },
};

/** What an export covers: the ids of the events whose data it holds (empty for organizer-only exporters). */
export interface ExportCoverage {
  eventIds: number[];
}

/**
 * Which events an export covers for a principal at this moment (issue 13: "an export contains only data its
 * owner may read at export time"; compat §3.7 anti-escalation). Event level: the event, when the principal
 * reaches it and holds the exporter's permission there (any of them). Organizer level: the events named in the
 * form's `events` (all when empty) whose start lies in `event_date_range` (in the event's time zone), narrowed to
 * those the principal may read; gift cards need `organizer.giftcards:read`.
 * @returns the coverage, or null when the principal may not run the export at all
 */
export function coverage(
  principal: Principal,
  identifier: string,
  organizerId: number,
  event: ScopeEvent | null,
  organizerEvents: readonly ScopeEvent[],
  form: Record<string, unknown>,
): ExportCoverage | null {
  const need = EXPORTER_PERMISSION[identifier];
  if (!need) return null;
  if (need.organizer) {
    const perms = principal.organizerPermissions(organizerId);
    return need.organizer.every((p) => perms.has(p)) ? { eventIds: [] } : null;
  }
  const allowed = (e: ScopeEvent) => {
    if (!principal.canAccessEvent(organizerId, e.id)) return false;
    const perms = principal.eventPermissions(organizerId, e.id);
    return need.event!.length === 0 || need.event!.some((p) => perms.has(p));
  };
  if (event) return allowed(event) ? { eventIds: [event.id] } : null;
  const slugs = Array.isArray(form.events) ? (form.events as string[]) : [];
  const frame = typeof form.event_date_range === 'string' ? parseDateFrame(form.event_date_range) : null;
  const named = organizerEvents.filter((e) => slugs.length === 0 || slugs.includes(e.slug));
  // Events the form names explicitly must all be readable (compat §3.7 anti-escalation).
  if (slugs.length > 0 && (named.length < slugs.length || !named.every(allowed))) return null;
  const eventIds = named
    .filter((e) => {
      if (!frame) return true;
      const day = DateTime.fromJSDate(e.dateFrom, { zone: e.timezone }).toISODate()!;
      return (!frame.from || day >= frame.from) && (!frame.to || day <= frame.to);
    })
    .filter(allowed)
    .map((e) => e.id);
  return { eventIds };
}

/**
 * The UTC bounds of a `date_range` frame read in `zone`: from the start of its first day to the start of the
 * day after its last (either open).
 */
export function frameBounds(value: unknown, zone: string): { from: Date | null; before: Date | null } {
  const frame = typeof value === 'string' ? parseDateFrame(value) : null;
  if (!frame) return { from: null, before: null };
  const at = (iso: string, plusDays: number) =>
    DateTime.fromISO(iso, { zone }).plus({ days: plusDays }).startOf('day').toJSDate();
  return {
    from: frame.from ? at(frame.from, 0) : null,
    before: frame.to ? at(frame.to, 1) : null,
  };
}
