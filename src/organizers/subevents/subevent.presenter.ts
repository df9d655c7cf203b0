import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiI18n, ApiInt, ApiMoney } from '../../common/http/api-schemas';
import { isoUtc } from '../../common/values/datetime';
import type { I18nString } from '../../common/values/i18n';
import type { SubEvent } from './subevent.entity';
import type { ItemPriceOverride, PriceOverrides, VariationPriceOverride } from './subevent-prices.port';

/** An item price override of a date (`price` null: the item's default price). */
export class ItemPriceOverrideJson {
  @ApiInt()
  item!: number;
  @ApiMoney({ nullable: true })
  price!: string | null;
  /** Not sold on this date. */
  disabled!: boolean;
  @ApiDateTime({ nullable: true })
  available_from!: string | null;
  @ApiDateTime({ nullable: true })
  available_until!: string | null;
}

/** A variation price override of a date (`price` null: the variation's default price). */
export class VariationPriceOverrideJson {
  @ApiInt()
  variation!: number;
  @ApiMoney({ nullable: true })
  price!: string | null;
  /** Not sold on this date. */
  disabled!: boolean;
  @ApiDateTime({ nullable: true })
  available_from!: string | null;
  @ApiDateTime({ nullable: true })
  available_until!: string | null;
}

/** Wire form of a date of a series (spec "Sub-event"; compat §3.17). Datetimes in UTC ISO 8601. */
export class SubEventJson {
  @ApiInt()
  id!: number;
  @ApiI18n()
  name!: I18nString;
  /** Slug of the series. */
  event!: string;
  active!: boolean;
  is_public!: boolean;
  @ApiDateTime()
  date_from!: string;
  @ApiDateTime({ nullable: true })
  date_to!: string | null;
  @ApiDateTime({ nullable: true })
  date_admission!: string | null;
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
  @ApiI18n({ nullable: true })
  frontpage_text!: I18nString | null;
  comment!: string | null;
  @ApiProperty({ type: [ItemPriceOverrideJson] })
  item_price_overrides!: ItemPriceOverride[];
  @ApiProperty({ type: [VariationPriceOverrideJson] })
  variation_price_overrides!: VariationPriceOverride[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  meta_data!: Record<string, string>;
  @ApiInt({ nullable: true })
  seating_plan!: number | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer', format: 'int32', nullable: true } })
  seat_category_mapping!: Record<string, number | null>;
  @ApiDateTime()
  last_modified!: string;
}

/** Entity, the series' slug and the date's overrides to the wire object, field by field. */
export function toSubEventJson(s: SubEvent, eventSlug: string, prices: PriceOverrides): SubEventJson {
  return {
    id: s.id,
    name: s.name,
    event: eventSlug,
    active: s.active,
    is_public: s.isPublic,
    date_from: isoUtc(s.dateFrom),
    date_to: isoUtc(s.dateTo),
    date_admission: isoUtc(s.dateAdmission),
    presale_start: isoUtc(s.presaleStart),
    presale_end: isoUtc(s.presaleEnd),
    location: s.location,
    geo_lat: s.geoLat,
    geo_lon: s.geoLon,
    frontpage_text: s.frontpageText,
    comment: s.comment,
    item_price_overrides: prices.item_price_overrides,
    variation_price_overrides: prices.variation_price_overrides,
    meta_data: s.metaData,
    seating_plan: s.seatingPlanId,
    seat_category_mapping: s.seatCategoryMapping,
    last_modified: isoUtc(s.lastModified),
  };
}
