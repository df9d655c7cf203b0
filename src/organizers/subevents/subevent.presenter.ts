import { isoUtc } from '../../common/values/datetime';
import type { I18nString } from '../../common/values/i18n';
import type { SubEvent } from './subevent.entity';
import type { ItemPriceOverride, PriceOverrides, VariationPriceOverride } from './subevent-prices.port';

/** Wire form of a date of a series (spec "Sub-event"; compat §3.17). Datetimes in UTC ISO 8601. */
export class SubEventJson {
  id!: number;
  name!: I18nString;
  /** Slug of the series. */
  event!: string;
  active!: boolean;
  is_public!: boolean;
  date_from!: string;
  date_to!: string | null;
  date_admission!: string | null;
  presale_start!: string | null;
  presale_end!: string | null;
  location!: I18nString | null;
  geo_lat!: number | null;
  geo_lon!: number | null;
  frontpage_text!: I18nString | null;
  comment!: string | null;
  item_price_overrides!: ItemPriceOverride[];
  variation_price_overrides!: VariationPriceOverride[];
  meta_data!: Record<string, string>;
  seating_plan!: number | null;
  seat_category_mapping!: Record<string, number | null>;
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
