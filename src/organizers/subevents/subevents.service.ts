import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, FieldErrors, Refused, ValidationFailed } from '../../common/errors';
import { findOrNotFound } from '../../common/persistence/find';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { isoUtc, parseDateTime, parseDateTimeOrNull } from '../../common/values/datetime';
import { toI18n, toI18nOrNull } from '../../common/values/i18n';
import { moneyOrNull } from '../../common/values/money';
import type { Event } from '../event.entity';
import { EVENT_SEATING, EventSeating } from '../event-seating.port';
import { EVENT_USAGE, EventUsage } from '../event-usage.port';
import { checkMetaData } from '../meta-properties/meta-data';
import type { Organizer } from '../organizer.entity';
import type { CreateSubEventDto, SubEventFieldsDto } from './subevent.dto';
import { SubEvent } from './subevent.entity';
import { toSubEventJson, SubEventJson } from './subevent.presenter';
import { checkDates, SUBEVENT_MESSAGES } from './subevent.rules';
import {
  OverrideAvailability,
  PriceOverrides,
  SUBEVENT_PRICES,
  SubEventPrices,
} from './subevent-prices.port';
import { SubEventReads } from './subevent-reads.service';

type FieldsInput = Complete<SubEventFieldsDto>;

/** Defaults of optional fields (compat §3.17); PUT resets omitted ones to these. */
const DEFAULTS: Omit<FieldsInput, 'name' | 'date_from'> = {
  active: false,
  is_public: true,
  date_to: null,
  date_admission: null,
  presale_start: null,
  presale_end: null,
  location: null,
  geo_lat: null,
  geo_lon: null,
  frontpage_text: null,
  comment: null,
  meta_data: {},
  seating_plan: null,
  seat_category_mapping: {},
};

const NO_PRICES: PriceOverrides = { item_price_overrides: [], variation_price_overrides: [] };

/**
 * Writes of the dates of an event series (spec "Sub-events"; compat §3.17): create, PUT/PATCH, delete, each in
 * one transaction with its log entry (`pretix.subevent.added|changed|deleted`, content type `subevent`).
 */
@Injectable()
export class SubEventsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: SubEventReads,
    @Inject(SUBEVENT_PRICES) private readonly prices: SubEventPrices,
    @Inject(EVENT_USAGE) private readonly usage: EventUsage,
    @Inject(EVENT_SEATING) private readonly seating: EventSeating,
  ) {}

  /**
   * Creates a date of the series; the override lists default to empty.
   * @throws ValidationFailed `non_field_errors` when the event is not a series, and for every invalid field
   *   (dates, meta data, overrides, seating plan)
   */
  async create(
    organizer: Organizer,
    event: Event,
    principal: Principal,
    body: CreateSubEventDto,
  ): Promise<SubEventJson> {
    if (!event.hasSubevents) throw ValidationFailed.nonField(SUBEVENT_MESSAGES.notSeries);
    const input = mergeInput(fieldsOf(body), { ...DEFAULTS } as FieldsInput);
    const overrides = { ...NO_PRICES, ...overridesOf(body) };
    return this.db.transaction(async (em) => {
      const meta = await this.validate(em, organizer, event, principal, input, overrides, null);
      const subevent = em.create(SubEvent, { eventId: event.id });
      apply(subevent, input, meta);
      await em.save(subevent);
      await this.prices.replace(em, subevent.id, overrides);
      if (subevent.seatingPlanId !== null) await this.applySeating(em, event, subevent);
      await this.log(em, principal, event, subevent.id, 'pretix.subevent.added', body);
      return this.queries.getIn(em, event, subevent.id);
    });
  }

  /**
   * PUT (`replace`: omitted fields, override lists included, reset to their defaults) or PATCH (`patch`: only
   * what is sent changes; an override list sent replaces the stored set, one not sent is kept).
   * @throws NotFound for an id that is not a date of the event
   * @throws ValidationFailed as {@link create} (except the series check)
   */
  async update(
    organizer: Organizer,
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateSubEventDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<SubEventJson> {
    return this.db.transaction(async (em) => {
      const subevent = await findOrNotFound(em, SubEvent, { id, eventId: event.id }, true);
      const base: FieldsInput =
        mode === 'patch' ? toSubEventJson(subevent, event.slug, NO_PRICES) : ({ ...DEFAULTS } as FieldsInput);
      const input = mergeInput(fieldsOf(body), base);
      const overrides = mode === 'patch' ? overridesOf(body) : { ...NO_PRICES, ...overridesOf(body) };
      const meta = await this.validate(em, organizer, event, principal, input, overrides, subevent);
      const seatingBefore = JSON.stringify([subevent.seatingPlanId, subevent.seatCategoryMapping]);
      apply(subevent, input, meta);
      await em.save(subevent);
      await this.prices.replace(em, subevent.id, overrides);
      if (JSON.stringify([subevent.seatingPlanId, subevent.seatCategoryMapping]) !== seatingBefore) {
        await this.applySeating(em, event, subevent);
      }
      if (Object.keys(body).length > 0) {
        await this.log(em, principal, event, subevent.id, 'pretix.subevent.changed', body);
      }
      return this.queries.getIn(em, event, subevent.id);
    });
  }

  /**
   * Deletes a date; its quotas, vouchers and cart positions go with it (foreign keys).
   * @throws NotFound for an id that is not a date of the event
   * @throws Refused (403) when order positions use it (compat §3.17)
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const subevent = await findOrNotFound(em, SubEvent, { id, eventId: event.id }, true);
      if (await this.usage.subeventHasOrders(em, subevent.id)) throw new Refused(SUBEVENT_MESSAGES.hasOrders);
      await this.log(em, principal, event, subevent.id, 'pretix.subevent.deleted', {});
      await em.delete(SubEvent, { id: subevent.id });
    });
  }

  /** Makes the date's seats those of its plan (compat §3.17 `seating_plan`). */
  private applySeating(em: EntityManager, event: Event, subevent: SubEvent): Promise<void> {
    return this.seating.apply(
      em,
      event.id,
      subevent.seatingPlanId,
      subevent.seatCategoryMapping,
      subevent.id,
    );
  }

  /** @returns the meta data to store */
  private async validate(
    em: EntityManager,
    organizer: Organizer,
    event: Event,
    principal: Principal,
    input: FieldsInput,
    overrides: Partial<PriceOverrides>,
    existing: SubEvent | null,
  ): Promise<Record<string, string>> {
    const errors = new ErrorCollector();
    checkDates(errors, input);
    const meta =
      existing && input.meta_data === existing.metaData
        ? { values: existing.metaData, errors: [] }
        : await checkMetaData(em, organizer.id, principal, input.meta_data, existing?.metaData ?? {});
    for (const message of meta.errors) errors.add('meta_data', message);
    const seating = await this.seating.check(
      em,
      organizer.id,
      event.id,
      input.seating_plan,
      input.seat_category_mapping,
      false,
    );
    const prices = await this.prices.check(em, event.id, overrides);
    const body = errors.toJSON();
    for (const found of [seating, prices]) merge(body, found);
    if (Object.keys(body).length > 0) throw new ValidationFailed(body);
    return meta.values ?? {};
  }

  private log(
    em: EntityManager,
    principal: Principal,
    event: Event,
    objectId: number,
    action: string,
    body: object,
  ): Promise<void> {
    return this.audit.record(em, principal, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType: 'subevent',
      objectId,
      action,
      data: { ...body },
    });
  }
}

/** Adds the errors of `extra` to `into` (lists of messages appended; nested shapes taken as they are). */
function merge(into: FieldErrors, extra: FieldErrors | null): void {
  for (const [field, value] of Object.entries(extra ?? {})) {
    const current = into[field];
    if (Array.isArray(current) && Array.isArray(value) && value.every((v) => typeof v === 'string')) {
      into[field] = [...(current as string[]), ...value];
    } else into[field] = value;
  }
}

/** The scalar fields of a body (without the override lists). */
function fieldsOf(body: Partial<CreateSubEventDto>): Partial<SubEventFieldsDto> {
  const { item_price_overrides: _items, variation_price_overrides: _variations, ...fields } = body;
  return fields;
}

/** The override lists a body sent, prices as money strings (null kept). */
function overridesOf(body: Partial<CreateSubEventDto>): Partial<PriceOverrides> {
  const out: Partial<PriceOverrides> = {};
  const money = moneyOrNull;
  if (body.item_price_overrides) {
    out.item_price_overrides = body.item_price_overrides.map((o) => ({
      item: o.item,
      price: money(o.price),
      ...availabilityOf(o),
    }));
  }
  if (body.variation_price_overrides) {
    out.variation_price_overrides = body.variation_price_overrides.map((o) => ({
      variation: o.variation,
      price: money(o.price),
      ...availabilityOf(o),
    }));
  }
  return out;
}

/** The sold-on-this-date part of an override entry; omitted fields take pretix's defaults (sold, no window). */
function availabilityOf(o: {
  disabled?: boolean;
  available_from?: string | null;
  available_until?: string | null;
}): OverrideAvailability {
  const at = (v: string | null | undefined) => (v ? isoUtc(parseDateTime(v)) : null);
  return {
    disabled: o.disabled ?? false,
    available_from: at(o.available_from),
    available_until: at(o.available_until),
  };
}

function apply(s: SubEvent, input: FieldsInput, meta: Record<string, string>): void {
  s.name = toI18n(input.name);
  s.active = input.active;
  s.isPublic = input.is_public;
  s.dateFrom = parseDateTime(input.date_from);
  s.dateTo = parseDateTimeOrNull(input.date_to);
  s.dateAdmission = parseDateTimeOrNull(input.date_admission);
  s.presaleStart = parseDateTimeOrNull(input.presale_start);
  s.presaleEnd = parseDateTimeOrNull(input.presale_end);
  s.location = toI18nOrNull(input.location);
  s.geoLat = input.geo_lat === null ? null : Number(input.geo_lat);
  s.geoLon = input.geo_lon === null ? null : Number(input.geo_lon);
  s.frontpageText = toI18nOrNull(input.frontpage_text);
  s.comment = input.comment;
  s.metaData = meta;
  s.seatingPlanId = input.seating_plan;
  s.seatCategoryMapping = input.seat_category_mapping;
}
