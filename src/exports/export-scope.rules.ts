import { DateTime } from 'luxon';
import type { Principal } from '../auth/principal';
import { resolveDateFrame } from '../tasks/export-form';
import type { ExporterDeclaration, ScopeEvent } from '../tasks/exporter';

export type { ScopeEvent } from '../tasks/exporter';
export { frameBounds } from '../tasks/export-form';

/** What an export covers: the ids of the events whose data it holds (empty for organizer-only exporters). */
export interface ExportCoverage {
  eventIds: number[];
}

/**
 * Which events an export covers for a principal at this moment (compat §3.7 anti-escalation: an export contains
 * only data its owner may read at export time). Event level: the event, when the principal
 * reaches it and holds the exporter's declared permission there (any of them). Organizer level: the events named in the
 * form's `events` (all when empty or `all_events` is true) whose start lies in `event_date_range` (the event's day
 * in its time zone; a relative frame resolved on the day `now` falls on in `zone`), narrowed to those the principal
 * may read; gift cards need `organizer.giftcards:read`.
 * @returns the coverage, or null when the principal may not run the export at all
 */
export function coverage(
  principal: Principal,
  exporter: Pick<ExporterDeclaration, 'permission'> | null,
  organizerId: number,
  event: ScopeEvent | null,
  organizerEvents: readonly ScopeEvent[],
  form: Record<string, unknown>,
  zone = 'UTC',
  now: Date = new Date(),
): ExportCoverage | null {
  if (!exporter) return null;
  const need = exporter.permission;
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
  const slugs = Array.isArray(form.events) && form.all_events !== true ? (form.events as string[]) : [];
  const frame =
    typeof form.event_date_range === 'string' ? resolveDateFrame(form.event_date_range, zone, now) : null;
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
 * Whether an exporter is offered to a principal (pretix's `init_event_exporters` / `init_organizer_exporters`):
 * at event level when it holds one of the exporter's event permissions on that event (none declared: event
 * access); at organizer level an organizer exporter needs all its organizer permissions, a multi-event one a team
 * of the organizer holding one of its event permissions (whatever events that team reaches, so an organizer with
 * no events yet still lists it).
 */
export function offeredTo(
  principal: Principal,
  exporter: Pick<ExporterDeclaration, 'permission'>,
  organizerId: number,
  eventId: number | null,
): boolean {
  const need = exporter.permission;
  if (eventId !== null) {
    if (!principal.canAccessEvent(organizerId, eventId)) return false;
    const perms = principal.eventPermissions(organizerId, eventId);
    return !need.event || need.event.length === 0 || need.event.some((p) => perms.has(p));
  }
  if (need.organizer) {
    const perms = principal.organizerPermissions(organizerId);
    return need.organizer.every((p) => perms.has(p));
  }
  return principal
    .grantsFor(organizerId)
    .some((g) => !need.event || need.event.length === 0 || need.event.some((p) => g.eventPermissions.has(p)));
}
