import { isoUtc } from '../common/values/datetime';
import type { I18nString } from '../common/values/i18n';
import type { Event } from './event.entity';

/** Wire form of an event (compat §4.2). Datetimes in UTC ISO 8601. */
export class EventJson {
  name!: I18nString;
  slug!: string;
  live!: boolean;
  testmode!: boolean;
  currency!: string;
  date_from!: string;
  date_to!: string | null;
  date_admission!: string | null;
  is_public!: boolean;
  presale_start!: string | null;
  presale_end!: string | null;
  location!: I18nString | null;
  geo_lat!: number | null;
  geo_lon!: number | null;
  has_subevents!: boolean;
  meta_data!: Record<string, string>;
  timezone!: string;
  seating_plan!: number | null;
  seat_category_mapping!: Record<string, number | null>;
}

export function toEventJson(event: Event): EventJson {
  return {
    name: event.name,
    slug: event.slug,
    live: event.live,
    testmode: event.testmode,
    currency: event.currency,
    date_from: isoUtc(event.dateFrom),
    date_to: isoUtc(event.dateTo),
    date_admission: isoUtc(event.dateAdmission),
    is_public: event.isPublic,
    presale_start: isoUtc(event.presaleStart),
    presale_end: isoUtc(event.presaleEnd),
    location: event.location,
    geo_lat: event.geoLat,
    geo_lon: event.geoLon,
    has_subevents: event.hasSubevents,
    meta_data: event.metaData,
    timezone: event.timezone,
    seating_plan: event.seatingPlanId,
    seat_category_mapping: event.seatCategoryMapping,
  };
}
