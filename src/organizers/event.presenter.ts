import { isoUtc } from '../common/values/datetime';
import type { I18nString } from '../common/values/i18n';
import type { Event } from './event.entity';
import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiI18n, ApiInt } from '../common/http/api-schemas';

/** Wire form of an event (compat §4.2). Datetimes in UTC ISO 8601. */
export class EventJson {
  @ApiI18n()
  name!: I18nString;
  slug!: string;
  live!: boolean;
  testmode!: boolean;
  currency!: string;
  @ApiDateTime()
  date_from!: string;
  @ApiDateTime({ nullable: true })
  date_to!: string | null;
  @ApiDateTime({ nullable: true })
  date_admission!: string | null;
  is_public!: boolean;
  @ApiDateTime({ nullable: true })
  presale_start!: string | null;
  @ApiDateTime({ nullable: true })
  presale_end!: string | null;
  @ApiI18n({ nullable: true })
  location!: I18nString | null;
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  geo_lat!: number | null;
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  geo_lon!: number | null;
  has_subevents!: boolean;
  meta_data!: Record<string, string>;
  timezone!: string;
  @ApiInt({ nullable: true })
  seating_plan!: number | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer', format: 'int32', nullable: true } })
  seat_category_mapping!: Record<string, number | null>;
  /** The event's item meta properties: name to default (pretix's `item_meta_properties`). */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  item_meta_properties!: Record<string, string>;
}

/**
 * Entity to wire object, field by field.
 * @param itemMeta the event's item meta properties, name to default (the EVENT_ITEM_META port's `defaults`)
 */
export function toEventJson(event: Event, itemMeta: Record<string, string>): EventJson {
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
    item_meta_properties: { ...itemMeta },
  };
}
