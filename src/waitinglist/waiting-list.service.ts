import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { SalesCatalogue } from '../catalogue/sales/sales-catalogue.service';
import { ErrorCollector, invalidPk, NotFound, Refused, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../common/persistence/write';
import type { Event } from '../organizers/event.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import type { CreateWaitingListEntryDto } from './waiting-list-entry.dto';
import { WaitingListEntry } from './waiting-list-entry.entity';
import { toWaitingListEntryJson, WaitingListEntryJson } from './waiting-list-entry.presenter';
import { WaitingListSettingsService } from './waiting-list-settings.service';
import { WAITING_LIST_CONTENT_TYPE, WaitingListVouchers } from './waiting-list-vouchers.service';
import { WaitingListQueries } from './waiting-list.queries';
import { buildName, storedNameParts, WL_MESSAGES } from './waiting-list.rules';

/** The merged input a write applies: every writable field. */
type EntryInput = Complete<CreateWaitingListEntryDto>;

/** Defaults of the optional fields (pretix model); PUT resets omitted ones to these. */
const DEFAULTS: Omit<EntryInput, 'email' | 'item'> = {
  variation: null,
  subevent: null,
  name_parts: {},
  phone: null,
  locale: null,
  priority: 0,
};

/** The default locale of an entry (pretix: the event's `locale` setting, `en` by default). */
const DEFAULT_LOCALE = 'en';

/**
 * Waiting list entries of one event (pretix `WaitingListViewSet`, `WaitingListSerializer`): list, detail, create,
 * PUT/PATCH, delete; sending the voucher is {@link WaitingListVouchers}. Every query is scoped by the event the
 * permission guard resolved. Writes log `pretix.event.orders.waitinglist.added|changed|deleted`.
 */
@Injectable()
export class WaitingListService {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly queries: WaitingListQueries,
    private readonly audit: AuditLogService,
    private readonly catalogue: SalesCatalogue,
    private readonly settings: WaitingListSettingsService,
    private readonly vouchers: WaitingListVouchers,
  ) {}

  /**
   * One page of the event's entries (one SQL statement). Filters `item`, `variation`, `subevent`, `email`,
   * `locale`, `has_voucher`; ordering `id`, `created`, `email`, `item` (default `created`).
   */
  async list(
    event: Event,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<WaitingListEntryJson>> {
    const result = await this.queries.page(this.em, event.id, filters, page);
    return result.withItems(result.items.map(toWaitingListEntryJson));
  }

  /** @throws NotFound for an id that is not an entry of this event */
  async get(event: Event, id: number): Promise<WaitingListEntryJson> {
    return toWaitingListEntryJson(await this.load(this.em, event, id, false));
  }

  /**
   * Creates an entry; logs `pretix.event.orders.waitinglist.added`.
   * @throws ValidationFailed on invalid fields or pretix's rules ({@link validate})
   */
  async create(
    event: Event,
    principal: Principal,
    body: CreateWaitingListEntryDto,
  ): Promise<WaitingListEntryJson> {
    const input = mergeInput(body, { ...DEFAULTS } as EntryInput);
    return this.em.transaction(async (em) => {
      await this.validate(em, event, input, body, null);
      const entry = em.create(WaitingListEntry, { eventId: event.id });
      this.apply(entry, input);
      await em.save(entry);
      await this.log(em, event, principal, entry.id, 'pretix.event.orders.waitinglist.added', body);
      return toWaitingListEntryJson(entry);
    });
  }

  /**
   * PUT (`replace`) or PATCH (`patch`); the rules are checked on the merged data, then an entry that has a voucher
   * is refused (403). Logs `pretix.event.orders.waitinglist.changed` (not for an unchanged entry).
   * @throws NotFound; ValidationFailed; Refused `This entry can not be changed as it has already been assigned a voucher.`
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateWaitingListEntryDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<WaitingListEntryJson> {
    return this.em.transaction(async (em) => {
      const entry = await this.load(em, event, id, true);
      const before = toWaitingListEntryJson(entry);
      const current: EntryInput = {
        email: entry.email,
        item: entry.itemId,
        variation: entry.variationId,
        subevent: entry.subeventId,
        name_parts: entry.nameParts,
        phone: entry.phone,
        locale: entry.locale,
        priority: entry.priority,
      };
      const base = mode === 'patch' ? current : ({ ...DEFAULTS } as EntryInput);
      const input = mergeInput(body, base);
      await this.validate(em, event, input, body, entry.id);
      if (entry.voucherId !== null) throw new Refused(WL_MESSAGES.changeAssigned);
      this.apply(entry, input);
      const after = toWaitingListEntryJson(entry);
      if (isDeepStrictEqual(before, after)) return after;
      await em.save(entry);
      await this.log(em, event, principal, entry.id, 'pretix.event.orders.waitinglist.changed', body);
      return after;
    });
  }

  /**
   * Deletes an entry; logs `pretix.event.orders.waitinglist.deleted`.
   * @throws NotFound; Refused `This entry can not be deleted as it has already been assigned a voucher.`
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.em.transaction(async (em) => {
      const entry = await this.load(em, event, id, true);
      if (entry.voucherId !== null) throw new Refused(WL_MESSAGES.deleteAssigned);
      await this.log(em, event, principal, entry.id, 'pretix.event.orders.waitinglist.deleted', {});
      await em.delete(WaitingListEntry, { id: entry.id, eventId: event.id });
    });
  }

  /** `POST …/{id}/send_voucher/` ({@link WaitingListVouchers.send}). */
  sendVoucher(event: Event, id: number, principal: Principal): Promise<void> {
    return this.vouchers.send(event, id, principal);
  }

  private async load(em: EntityManager, event: Event, id: number, lock: boolean): Promise<WaitingListEntry> {
    const entry = await this.queries.one(em, event.id, id, lock);
    if (!entry) throw new NotFound();
    return entry;
  }

  /**
   * pretix's checks, in its order: unknown references (`Invalid pk`, on their field), then (non-field) the
   * duplicate (`waiting_list_limit_per_user` open entries per address and product), item and variation, date,
   * and, when `item` or `variation` was sent, that the product is not available (open entries count as taken).
   * @throws ValidationFailed
   */
  private async validate(
    em: EntityManager,
    event: Event,
    input: EntryInput,
    body: Partial<CreateWaitingListEntryDto>,
    selfId: number | null,
  ): Promise<void> {
    const refs = await this.catalogue.load(em, event, {
      itemIds: [input.item],
      variationIds: [input.variation],
      subeventIds: [input.subevent],
    });
    const errors = new ErrorCollector();
    const item = refs.items.get(input.item);
    if (!item || !refs.ofOrganizer(item.eventId)) errors.add('item', invalidPk(input.item));
    const variation = input.variation === null ? null : refs.variations.get(input.variation);
    if (input.variation !== null && (!variation || !refs.ofOrganizer(variation.eventId)))
      errors.add('variation', invalidPk(input.variation));
    const subevent = input.subevent === null ? null : refs.subevents.get(input.subevent);
    const dateOfOrganizer =
      !!subevent &&
      (subevent.eventId === event.id ||
        (await new TenancyQueries().eventIdsOfOrganizer(em, event.organizerId, [subevent.eventId])).has(
          subevent.eventId,
        ));
    if (input.subevent !== null && !dateOfOrganizer) errors.add('subevent', invalidPk(input.subevent));
    errors.throwIfAny();

    const { waiting_list_limit_per_user: limit } = await this.settings.get(em, event.id);
    const product = { itemId: input.item, variationId: input.variation, subeventId: input.subevent };
    if ((await this.queries.openEntriesOf(em, event.id, { ...product, email: input.email }, selfId)) >= limit)
      throw ValidationFailed.nonField(WL_MESSAGES.duplicate);
    if (item!.eventId !== event.id) throw ValidationFailed.nonField(WL_MESSAGES.itemOfOtherEvent);
    if ((item!.hasVariations && !variation) || (variation && variation.itemId !== item!.id))
      throw ValidationFailed.nonField(WL_MESSAGES.variationRequired);
    if (event.hasSubevents && !subevent) throw ValidationFailed.nonField(WL_MESSAGES.subeventRequired);
    if (subevent && (!event.hasSubevents || subevent.eventId !== event.id))
      throw ValidationFailed.nonField(WL_MESSAGES.subeventOfOtherEvent);
    if (body.item !== undefined || body.variation !== undefined) {
      if (await this.vouchers.productAvailable(em, event.id, product, true))
        throw ValidationFailed.nonField(WL_MESSAGES.available);
    }
  }

  /** Writes the merged fields onto the entity (name parts with `_scheme`, the name built from them). */
  private apply(entry: WaitingListEntry, input: EntryInput): void {
    entry.email = input.email;
    entry.itemId = input.item;
    entry.variationId = input.variation;
    entry.subeventId = input.subevent;
    entry.nameParts = storedNameParts(input.name_parts);
    entry.nameCached = buildName(entry.nameParts);
    entry.phone = input.phone;
    entry.locale = input.locale ?? DEFAULT_LOCALE;
    entry.priority = input.priority;
  }

  private async log(
    em: EntityManager,
    event: Event,
    principal: Principal,
    id: number,
    action: string,
    data: object,
  ): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType: WAITING_LIST_CONTENT_TYPE,
      objectId: id,
      action,
      data: { ...data },
    });
  }
}
