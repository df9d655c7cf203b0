import { byRef, ObjectRef, refIds } from '../../common/listing/object-refs';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../../audit/change-renderer';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { findOrNotFound } from '../../common/persistence/find';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, invalidPk, NotFound, ValidationFailed } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import type { Event } from '../../organizers/event.entity';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import type { CountedQuota } from './quota-availability';
import { QuotaLookup } from './quota-lookup.service';
import { QuotaReservations } from './quota-reservations.service';
import type { CreateQuotaDto } from './quota.dto';
import { SUBEVENT_OF_OTHER_EVENT } from '../../organizers/subevents/subevent-scope';
import { SubEventQueries } from '../../organizers/subevents/subevent.queries';
import { Quota } from './quota.entity';
import { QuotaQueries } from './quota.queries';
import {
  QuotaAvailabilityJson,
  QuotaJson,
  QuotaRefs,
  toQuotaAvailabilityJson,
  toQuotaJson,
} from './quota.presenter';
import { QuotaItemRef, quotaRuleViolation, QuotaVariationRef } from './quota.rules';

/** The merged input a write applies: every writable field. */
type QuotaInput = Complete<CreateQuotaDto>;

/** Defaults of optional quota fields (compat §3.14); PUT resets omitted ones to these. */
const QUOTA_DEFAULTS: Omit<QuotaInput, 'name'> = {
  size: null,
  items: [],
  variations: [],
  subevent: null,
  close_when_sold_out: false,
  closed: false,
  release_after_exit: false,
  ignore_for_event_availability: false,
};

/** Audit content type of quotas (pretix model name); `@ConditionalList('quota')` reads it. */
const CONTENT_TYPE = 'quota';

/** A quota with its products, as the engine counts it. */
function counted(quota: Quota, refs: QuotaRefs): CountedQuota {
  return { ...quota, itemIds: refs.items, variationIds: refs.variations };
}

/** Distinct ids, ascending (how the wire form lists them). */
const sortedIds = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);

/** Whether `with_availability=true` was asked for (pretix compares with `true` only; anything else is off). */
function wantsAvailability(filters: QueryFilters): boolean {
  return filters.raw('with_availability') === 'true';
}

/**
 * Quotas of one event: list, detail, availability, create, update, delete (spec "Quota", "States and
 * transitions"; compat §3.14). Every query is scoped by the event resolved by the permission guard. Availability
 * comes from the QuotaAvailability port (the quota engine in `orders/`) through {@link QuotaReservations}, one
 * call per request; reads never write.
 */
@Injectable()
@RendersChanges('quota')
export class QuotasService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly queries: QuotaQueries,
    private readonly audit: AuditLogService,
    private readonly lookup: QuotaLookup,
    private readonly reservations: QuotaReservations,
  ) {}

  /**
   * One page of the event's quotas. Filters `subevent` (id), `subevent__in` and `items__in` (comma-separated
   * ids; quotas listing one of the items); 400 on non-integers. Ordering `id`, `position` (quotas have none: the
   * same as `id`), `size` (default `position`). With `with_availability=true` each quota also has `available`
   * and `available_number`. A fixed number of SQL statements whatever the page size: rows, count, the item and
   * variation ids of the page, and (with availability) one engine call.
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<QuotaJson>> {
    const withAvailability = wantsAvailability(filters);
    const result = await this.queries.page(this.em, event.id, filters, page);
    return result.withItems(await this.present(result.items, withAvailability));
  }

  /** The change feed's quota objects ({@link details}). */
  renderChanges(_scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.details(refs);
  }

  /** The detail answers (without availability) of the quotas `refs` names that still exist, by id; one statement. */
  async details(refs: readonly ObjectRef[]): Promise<Map<number, QuotaJson>> {
    if (refs.length === 0) return new Map();
    const rows = await this.queries.many(this.em, refIds(refs));
    const json = await this.present(rows, false);
    return byRef(
      refs,
      rows.map((r, i) => ({ id: r.quota.id, eventId: r.quota.eventId, json: json[i] })),
    );
  }

  /**
   * One quota; with `with_availability=true` also `available` and `available_number`.
   * @throws NotFound for an id that is not a quota of this event
   */
  async get(event: Event, id: number, filters: QueryFilters): Promise<QuotaJson> {
    const row = await this.queries.one(this.em, event.id, id);
    const [json] = await this.present([row], wantsAvailability(filters));
    return json;
  }

  /**
   * The availability object with every key (spec "Quota availability object"): counts of paid and pending
   * orders, exits, carts, blocking vouchers, open waiting list entries (taken off `available_number`, as pretix
   * does); `total_size`/`available_number` null when unlimited.
   * @throws NotFound for an id that is not a quota of this event
   */
  async availability(event: Event, id: number): Promise<QuotaAvailabilityJson> {
    const [quota] = await this.lookup.load(this.em, [id], false);
    if (!quota || quota.eventId !== event.id) throw new NotFound();
    const result = (
      await this.reservations.availability(this.em, [quota], { countWaitingList: true })
    ).get(quota.id);
    if (!result) throw new Error(`Quota engine gave no result for quota ${quota.id}`);
    return toQuotaAvailabilityJson(result);
  }

  /**
   * Creates a quota; logs `pretix.event.quota.added`. A quota with `close_when_sold_out` that is sold out at once
   * (size 0 or taken by blocking vouchers) is closed in the same transaction (spec "States and transitions").
   * @throws ValidationFailed on invalid fields or the cross-field rules of compat §3.14
   */
  async create(event: Event, principal: Principal, body: CreateQuotaDto): Promise<QuotaJson> {
    const input = mergeInput(body, { ...QUOTA_DEFAULTS } as QuotaInput);
    return this.em.transaction(async (em) => {
      await this.validate(em, event, input);
      const quota = em.create(Quota, { eventId: event.id });
      this.apply(quota, input);
      await em.save(quota);
      const refs: QuotaRefs = { items: sortedIds(input.items), variations: sortedIds(input.variations) };
      await this.queries.writeRefs(em, quota.id, refs, false);
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: quota.id,
        action: 'pretix.event.quota.added',
        data: { ...body },
      });
      await this.closeIfSoldOut(em, event, principal, quota, refs);
      return toQuotaJson(quota, refs);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`: only sent fields change); the rules are
   * checked on the merged data. When the wire object changed: `closed` true→false logs
   * `pretix.event.quota.opened`, false→true `pretix.event.quota.closed`, then `pretix.event.quota.changed`; a
   * quota with `close_when_sold_out` that is now sold out is closed, except by the very update that reopened it
   * (so a sold-out quota can be reopened). An unchanged update writes and logs nothing.
   * @throws NotFound for an id that is not a quota of this event
   * @throws ValidationFailed on invalid fields or the cross-field rules of compat §3.14
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateQuotaDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<QuotaJson> {
    return this.em.transaction(async (em) => {
      const quota = await this.load(em, event, id, true);
      const beforeRefs = (await this.lookup.refsOf(em, [quota.id])).get(quota.id)!;
      const before = toQuotaJson(quota, beforeRefs);
      const base: QuotaInput = mode === 'patch' ? before : ({ ...QUOTA_DEFAULTS } as QuotaInput);
      const input = mergeInput(body, base);
      await this.validate(em, event, input);
      this.apply(quota, input);
      const refs: QuotaRefs = { items: sortedIds(input.items), variations: sortedIds(input.variations) };
      const after = toQuotaJson(quota, refs);
      if (isDeepStrictEqual(before, after)) return after;

      await em.update(
        Quota,
        { id: quota.id, eventId: event.id },
        {
          name: quota.name,
          size: quota.size,
          subeventId: quota.subeventId,
          closeWhenSoldOut: quota.closeWhenSoldOut,
          closed: quota.closed,
          releaseAfterExit: quota.releaseAfterExit,
          ignoreForEventAvailability: quota.ignoreForEventAvailability,
        },
      );
      if (!isDeepStrictEqual(beforeRefs, refs)) await this.queries.writeRefs(em, quota.id, refs, true);
      const reopened = before.closed && !quota.closed;
      const log = (action: string, data: Record<string, unknown> = {}) =>
        this.audit.record(em, principal, {
          organizerId: event.organizerId,
          eventId: event.id,
          contentType: CONTENT_TYPE,
          objectId: quota.id,
          action,
          data,
        });
      if (reopened) await log('pretix.event.quota.opened');
      else if (!before.closed && quota.closed) await log('pretix.event.quota.closed');
      await log('pretix.event.quota.changed', { ...body });
      if (!reopened) await this.closeIfSoldOut(em, event, principal, quota, refs);
      return toQuotaJson(quota, refs);
    });
  }

  /**
   * Deletes a quota, even one in use (compat §3.14: its items may become unsellable). Its item/variation links
   * go with it. Logs `pretix.event.quota.deleted`.
   * @throws NotFound for an id that is not a quota of this event
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.em.transaction(async (em) => {
      const quota = await this.load(em, event, id, true);
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: quota.id,
        action: 'pretix.event.quota.deleted',
        data: {},
      });
      await em.delete(Quota, { id: quota.id, eventId: event.id });
    });
  }

  /** A quota of the event; `lock` takes the row lock reservations take (architecture.md "Concurrency"). */
  private async load(em: EntityManager, event: Event, id: number, lock: boolean): Promise<Quota> {
    return findOrNotFound(em, Quota, { id, eventId: event.id }, lock);
  }

  /**
   * Wire objects for quotas: their item and variation ids in one statement for all of them and, when asked, their
   * availability in one engine call. Nothing is queried for an empty page.
   */
  private async present(
    rows: { quota: Quota; refs: QuotaRefs }[],
    withAvailability: boolean,
  ): Promise<QuotaJson[]> {
    if (rows.length === 0) return [];
    const availability = withAvailability
      ? await this.reservations.availability(
          this.em,
          rows.map((r) => counted(r.quota, r.refs)),
          { countWaitingList: true },
        )
      : null;
    return rows.map((r) => toQuotaJson(r.quota, r.refs, availability?.get(r.quota.id)));
  }

  /**
   * Closes a quota with `close_when_sold_out` that has no place left (spec "States and transitions"); logged
   * `pretix.event.quota.closed` by {@link QuotaReservations.close}. Unlimited and closed quotas are left alone.
   */
  private async closeIfSoldOut(
    em: EntityManager,
    event: Event,
    principal: Principal,
    quota: Quota,
    refs: QuotaRefs,
  ): Promise<void> {
    if (!quota.closeWhenSoldOut || quota.closed || quota.size === null) return;
    const result = (await this.reservations.availability(em, [counted(quota, refs)])).get(quota.id);
    if (result && result.available_number === 0)
      await this.reservations.close(em, { event, principal }, quota);
  }

  /**
   * Field errors first (unknown items or variations of the organizer, any sub-event since none exist yet), then
   * the first broken cross-field rule (compat §3.14). Referenced items and variations are share-locked until the
   * transaction ends, so a concurrent delete cannot slip in between check and write.
   * @throws ValidationFailed
   */
  private async validate(em: EntityManager, event: Event, input: QuotaInput): Promise<void> {
    const errors = new ErrorCollector();
    const itemIds = [...new Set(input.items)];
    const variationIds = [...new Set(input.variations)];
    const itemRows = await this.queries.itemsForWrite(em, itemIds);
    const variationRows = await this.queries.variationsForWrite(em, variationIds);
    // Items and variations of any event of the organizer are known; others are unknown ids.
    const foreign = [...itemRows, ...variationRows].map((r) => r.event_id).filter((id) => id !== event.id);
    const organizerEvents = await new TenancyQueries().eventIdsOfOrganizer(em, event.organizerId, foreign);
    const reachable = (eventId: number) => eventId === event.id || organizerEvents.has(eventId);
    const items = new Map<number, QuotaItemRef>(
      itemRows
        .filter((r) => reachable(r.event_id))
        .map((r) => [r.id, { id: r.id, eventId: r.event_id, hasVariations: r.has_variations }]),
    );
    const variations = new Map<number, QuotaVariationRef>(
      variationRows.filter((r) => reachable(r.event_id)).map((r) => [r.id, { id: r.id, itemId: r.item_id }]),
    );
    const unknownItem = input.items.find((id) => !items.has(id));
    if (unknownItem !== undefined) errors.add('items', invalidPk(unknownItem));
    const unknownVariation = input.variations.find((id) => !variations.has(id));
    if (unknownVariation !== undefined) errors.add('variations', invalidPk(unknownVariation));
    // A date of the series (resolved through the tenancy roots); a non-series is refused by the rules below.
    if (input.subevent !== null) {
      const date = (await new SubEventQueries().subeventsByIds(em, [input.subevent])).get(input.subevent);
      if (!date) errors.add('subevent', invalidPk(input.subevent));
      else if (event.hasSubevents && date.eventId !== event.id)
        errors.add('subevent', SUBEVENT_OF_OTHER_EVENT);
    }
    errors.throwIfAny();
    const violation = quotaRuleViolation(event, input, items, variations);
    if (violation) throw ValidationFailed.nonField(violation);
  }

  /** Writes the merged scalar fields onto the entity (links are written by {@link QuotaQueries.writeRefs}). */
  private apply(quota: Quota, input: QuotaInput): void {
    quota.name = input.name;
    quota.size = input.size;
    quota.subeventId = input.subevent;
    quota.closeWhenSoldOut = input.close_when_sold_out;
    quota.closed = input.closed;
    quota.releaseAfterExit = input.release_after_exit;
    quota.ignoreForEventAvailability = input.ignore_for_event_availability;
  }
}
