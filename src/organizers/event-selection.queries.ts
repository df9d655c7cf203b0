import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { I18nString } from '../common/values/i18n';

/** What a device's event selection needs of an event or a date (pretix `EventSelectionView`). */
export interface SelectionDate {
  kind: 'event' | 'subevent';
  /** Event id, or sub-event id for `kind: 'subevent'`. */
  id: number;
  eventId: number;
  eventSlug: string;
  eventName: I18nString;
  /** The event's time zone (a date has its event's). */
  timezone: string;
  hasSubevents: boolean;
  dateFrom: Date;
  dateTo: Date | null;
  dateAdmission: Date | null;
}

/** The dates pretix's event selection weighs, each null when there is none. */
export interface SelectionCandidates {
  /** The organizer's event of `current_event` (any event of the organizer, as pretix looks it up). */
  currentEvent: SelectionDate | null;
  /** The date `current_subevent` of that event. */
  currentSubevent: SelectionDate | null;
  /** Reachable live event without dates whose admission (or start) is at or before now, the latest. */
  lastStartedEvent: SelectionDate | null;
  /** … whose admission (or start) is after now, the earliest. */
  upcomingEvent: SelectionDate | null;
  lastStartedSubevent: SelectionDate | null;
  upcomingSubevent: SelectionDate | null;
}

/** Which events and dates a device may be sent to. */
export interface SelectionScope {
  organizerId: number;
  /** Event ids the device reaches, or all events of the organizer. */
  reachable: number[] | 'all';
  now: Date;
  currentEventSlug: string | null;
  currentSubeventId: number | null;
}

interface Row {
  role: keyof SelectionCandidates;
  kind: 'event' | 'subevent';
  id: number;
  event_id: number;
  slug: string;
  name: I18nString;
  timezone: string;
  has_subevents: boolean;
  date_from: Date;
  date_to: Date | null;
  date_admission: Date | null;
}

const COLUMNS = `e.slug, e.name, e.timezone, e.has_subevents`;
const EVENT = `SELECT 'event' AS kind, e.id, e.id AS event_id, ${COLUMNS}, e.date_from, e.date_to, e.date_admission
  FROM event e`;
const SUBEVENT = `SELECT 'subevent' AS kind, s.id, e.id AS event_id, ${COLUMNS}, s.date_from, s.date_to,
  s.date_admission FROM subevent s JOIN event e ON e.id = s.event_id`;
/** pretix's `first_date`: admission, else start. */
const FIRST = (t: string) => `coalesce(${t}.date_admission, ${t}.date_from)`;
const REACHABLE = `e.organizer_id = $1 AND e.live AND ($2::int[] IS NULL OR e.id = ANY($2::int[]))`;

/**
 * The organizers context's statement for a device's event selection (pretix `EventSelectionView.base_event_qs`,
 * `base_subevent_qs`): the current event and date named by the device, and the last started and next upcoming
 * reachable event (live, without dates) and date (active, of a live event), in one statement, no lock.
 * "Started" compares `coalesce(date_admission, date_from)` with now; ties go to the higher id (latest) or the lower
 * id (earliest).
 */
@Injectable()
export class EventSelectionQueries {
  async candidates(em: EntityManager, scope: SelectionScope): Promise<SelectionCandidates> {
    const params = [
      scope.organizerId,
      scope.reachable === 'all' ? null : scope.reachable,
      scope.now,
      scope.currentEventSlug,
      scope.currentSubeventId,
    ];
    const rows = await em.query<Row[]>(
      `(${EVENT.replace('SELECT', `SELECT 'currentEvent' AS role,`)}
          WHERE e.organizer_id = $1 AND e.slug = $4 LIMIT 1)
       UNION ALL (${SUBEVENT.replace('SELECT', `SELECT 'currentSubevent' AS role,`)}
          WHERE e.organizer_id = $1 AND e.slug = $4 AND s.id = $5 LIMIT 1)
       UNION ALL (${EVENT.replace('SELECT', `SELECT 'lastStartedEvent' AS role,`)}
          WHERE ${REACHABLE} AND NOT e.has_subevents AND ${FIRST('e')} <= $3
          ORDER BY ${FIRST('e')} DESC, e.id DESC LIMIT 1)
       UNION ALL (${EVENT.replace('SELECT', `SELECT 'upcomingEvent' AS role,`)}
          WHERE ${REACHABLE} AND NOT e.has_subevents AND ${FIRST('e')} > $3
          ORDER BY ${FIRST('e')}, e.id LIMIT 1)
       UNION ALL (${SUBEVENT.replace('SELECT', `SELECT 'lastStartedSubevent' AS role,`)}
          WHERE ${REACHABLE} AND s.active AND ${FIRST('s')} <= $3
          ORDER BY ${FIRST('s')} DESC, s.id DESC LIMIT 1)
       UNION ALL (${SUBEVENT.replace('SELECT', `SELECT 'upcomingSubevent' AS role,`)}
          WHERE ${REACHABLE} AND s.active AND ${FIRST('s')} > $3
          ORDER BY ${FIRST('s')}, s.id LIMIT 1)`,
      params,
    );
    const result: SelectionCandidates = {
      currentEvent: null,
      currentSubevent: null,
      lastStartedEvent: null,
      upcomingEvent: null,
      lastStartedSubevent: null,
      upcomingSubevent: null,
    };
    for (const r of rows) {
      result[r.role] = {
        kind: r.kind,
        id: r.id,
        eventId: r.event_id,
        eventSlug: r.slug,
        eventName: r.name,
        timezone: r.timezone,
        hasSubevents: r.has_subevents,
        dateFrom: new Date(r.date_from),
        dateTo: r.date_to === null ? null : new Date(r.date_to),
        dateAdmission: r.date_admission === null ? null : new Date(r.date_admission),
      };
    }
    return result;
  }
}
