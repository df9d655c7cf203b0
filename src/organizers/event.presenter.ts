import { isoUtc } from '../common/values/datetime';
import type { I18nString } from '../common/values/i18n';
import type { Event } from './event.entity';
import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiI18n, ApiInt } from '../common/http/api-schemas';
import { EVENT_PLUGINS } from './plugins';
import { legacySalesChannels } from './sales-channels/channel-fields';

/** What the event's wire form needs besides the row. */
export interface EventPresentation {
  /** The configured `SITE_URL` (no trailing slash). */
  siteUrl: string;
  organizerSlug: string;
  /** The organizer's sales channel identifiers (what "all channels" lists in `sales_channels`). */
  channels: readonly string[];
  /** Whether `valid_keys` is included (pretix: only where the URL names the event, i.e. not in lists or create). */
  withValidKeys: boolean;
  /** The event's item meta properties, name to default. */
  itemMeta: Record<string, string>;
}

/** `valid_keys` (pretix `ValidKeysField`): public keys of signed ticket secrets; this service signs none. */
export class ValidKeysJson {
  @ApiProperty({
    type: [String],
    description: 'Base64 public keys of `pretix_sig1` ticket signatures (none).',
  })
  pretix_sig1!: string[];
}

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
  /** Package names of the plugins active for the event (always the same list, see README). */
  plugins!: string[];
  /** Only on the event's own URL (detail, PUT, PATCH), as in pretix. */
  @ApiProperty({ type: ValidKeysJson, required: false })
  valid_keys?: ValidKeysJson;
  all_sales_channels!: boolean;
  limit_sales_channels!: string[];
  /** Legacy: every channel of the organizer when `all_sales_channels`, else `limit_sales_channels`. */
  sales_channels!: string[];
  /** The event's public shop page: `<SITE_URL>/<organizer>/<event>/` (read-only). */
  @ApiProperty({ type: 'string', format: 'uri' })
  public_url!: string;
}

/**
 * Entity to wire object, field by field (compat §4.2). `ctx.itemMeta` is the event's item meta properties, name
 * to default (the EVENT_ITEM_META port's `defaults`).
 */
export function toEventJson(event: Event, ctx: EventPresentation): EventJson {
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
    item_meta_properties: { ...ctx.itemMeta },
    plugins: [...EVENT_PLUGINS],
    ...(ctx.withValidKeys ? { valid_keys: { pretix_sig1: [] } } : {}),
    all_sales_channels: event.allSalesChannels,
    limit_sales_channels: event.allSalesChannels ? [] : [...event.limitSalesChannels],
    sales_channels: legacySalesChannels(event.allSalesChannels, event.limitSalesChannels, ctx.channels),
    public_url: `${ctx.siteUrl}/${ctx.organizerSlug}/${event.slug}/`,
  };
}
