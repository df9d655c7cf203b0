import { ApiProperty } from '@nestjs/swagger';
import { rulesProblem } from './checkin-logic';
import { ApiInt } from '../common/http/api-schemas';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { SalesCatalogue } from '../catalogue/sales/sales-catalogue.service';
import { ErrorCollector, NotFound, ParentNotFound } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { i18nText, I18nString } from '../common/values/i18n';
import { findOrNotFound } from '../common/persistence/find';
import { Complete, mergeInput, WriteMode } from '../common/persistence/write';
import { CheckinPositions, ListScope } from '../orders/checkin-seam/checkin-positions';
import type { Event } from '../organizers/event.entity';
import { SUBEVENT_OF_OTHER_EVENT } from '../organizers/subevents/subevent-scope';
import { SubEventQueries } from '../organizers/subevents/subevent.queries';
import { CheckinList, CheckinListProduct } from './checkin-list.entity';
import type { CreateCheckinListDto } from './checkin-list.dto';
import { CheckinListJson, toCheckinListJson } from './checkin-list.presenter';
import { CheckinQueries } from './checkin.queries';

type ListInput = Complete<CreateCheckinListDto>;

/** Defaults of optional fields (compat §3.20); PUT resets omitted ones to these. */
const DEFAULTS: Omit<ListInput, 'name'> = {
  all_products: false,
  limit_products: [],
  subevent: null,
  include_pending: false,
  allow_multiple_entries: false,
  allow_entry_after_exit: true,
  addon_match: false,
  exit_all_at: null,
  rules: {},
  ignore_in_statistics: false,
  consider_tickets_used: true,
};

/** Audit content type (pretix model name). */
const CONTENT_TYPE = 'checkinlist';
const ITEMS_OF_OTHER_EVENT = 'One or more items do not belong to this event.';
/** Fields `?exclude=` may drop from the output (the two expensive counters above all). */
/** Shortest `search` that shows positions to a credential with only the check-in permission (compat §3.21). */
export const MIN_SCANNER_SEARCH = 3;

export const EXCLUDABLE = ['position_count', 'checkin_count'] as const;

/** The event (or, for a list of one date, the date) of a list's `status/`. */
export class CheckinStatusEventJson {
  /** Its name in the event's language (pretix `str(name)`), see {@link statusText}. */
  name!: string;
}

/** Counts of one variation in a list's `status/`. */
export class CheckinStatusVariationJson {
  @ApiInt()
  id!: number;
  /** The variation's name as a plain text (pretix `str(variation)`), see {@link statusText}. */
  value!: string;
  @ApiInt()
  checkin_count!: number;
  @ApiInt()
  position_count!: number;
}

/** Counts of one product in a list's `status/`. */
export class CheckinStatusItemJson {
  @ApiInt()
  id!: number;
  /** The product's name as a plain text (pretix `str(item)`), see {@link statusText}. */
  name!: string;
  admission!: boolean;
  @ApiInt()
  checkin_count!: number;
  @ApiInt()
  position_count!: number;
  variations!: CheckinStatusVariationJson[];
}

/** The `status/` answer of a list (compat §3.20). */
export class CheckinListStatus {
  @ApiInt()
  checkin_count!: number;
  @ApiInt()
  position_count!: number;
  /** Tickets whose last scan on the list was an entry. */
  @ApiInt()
  inside_count!: number;
  @ApiProperty({ type: CheckinStatusEventJson })
  event!: CheckinStatusEventJson;
  items!: CheckinStatusItemJson[];
}

/**
 * A multi-lingual name as pretix's `status/` writes it (`str()` of the name in the event's language): the
 * English text, else the first language stored ('' when none). The event's `locale` setting is kept by the
 * invoices context and is not consulted: an event whose default language is not English but has an English text
 * shows the English one.
 */
export function statusText(value: I18nString | null | undefined): string {
  return i18nText(value);
}

/**
 * Check-in lists of one event (spec "Check-in list"; compat §3.20): list, detail, create, PUT/PATCH, delete (with
 * the list's check-ins) and `status/`. Which positions a list admits is asked of orders ({@link CheckinPositions}).
 */
@Injectable()
export class CheckinListsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly catalogue: SalesCatalogue,
    private readonly positions: CheckinPositions,
    private readonly queries: CheckinQueries,
  ) {}

  /**
   * One page of lists, with products and (unless `exclude`d) counts, in one statement. Filters `subevent`,
   * `subevent_match` (that date's lists and those of no date), `ends_after` (lists of dates ending after it, and
   * lists of no date); ordering `id`, `name`, `subevent__date_from` (default `subevent__date_from,name,id`).
   * @throws ValidationFailed for a malformed filter value
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<CheckinListJson>> {
    const where = {
      subevent: filters.int('subevent'),
      subeventMatch: filters.int('subevent_match'),
      endsAfter: filters.datetime('ends_after'),
    };
    filters.expand(['subevent']);
    const exclude = new Set(filters.all('exclude'));
    const result = await this.queries.listsPage(
      this.db,
      event.id,
      where,
      exclude,
      this.positions.listCountsSql(),
      filters,
      page,
      (row, rel) => toCheckinListJson(row, rel.items, { positions: rel.positions, checkins: rel.checkins }),
    );
    if (exclude.size === 0) return result;
    return result.withItems(result.items.map((json) => dropFields(json, exclude)));
  }

  /**
   * The id of the list a device's event selection suggests for event `eventId` (date `subeventId`), preferring the
   * name or id of the device's current list; null when the event has no list ({@link CheckinQueries.selectionList}).
   */
  selectionList(
    eventId: number,
    subeventId: number | null,
    current: { listId: number; eventId: number } | null,
  ): Promise<number | null> {
    return this.queries.selectionList(this.db, eventId, subeventId, current);
  }

  /** @throws NotFound for an id that is not a list of this event */
  async get(event: Event, id: number, filters?: QueryFilters): Promise<CheckinListJson> {
    const json = await this.present(this.db, await this.load(this.db, event, id, false));
    return filters ? dropFields(json, new Set(filters.all('exclude'))) : json;
  }

  /**
   * Creates a list; logs `pretix.event.checkinlist.added`.
   * @throws ValidationFailed on items of another event or a sub-event not of this event
   */
  async create(event: Event, principal: Principal, body: CreateCheckinListDto): Promise<CheckinListJson> {
    const input = mergeInput(body, { ...DEFAULTS } as ListInput);
    return this.db.transaction(async (em) => {
      await this.validate(em, event, input);
      const list = em.create(CheckinList, { eventId: event.id });
      this.apply(list, input);
      await em.save(list);
      await this.setProducts(em, list.id, input.limit_products);
      await this.audit.recordOnEvent(
        em,
        principal,
        event,
        CONTENT_TYPE,
        list.id,
        'pretix.event.checkinlist.added',
        body,
      );
      return this.present(em, list);
    });
  }

  /**
   * PUT (`replace`) or PATCH (`patch`); logs `pretix.event.checkinlist.changed` when something changed.
   * @throws NotFound for an id that is not a list of this event
   * @throws ValidationFailed as {@link create}
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateCheckinListDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<CheckinListJson> {
    return this.db.transaction(async (em) => {
      const list = await this.load(em, event, id, true);
      const before = await this.present(em, list);
      const base: ListInput = mode === 'patch' ? before : ({ ...DEFAULTS } as ListInput);
      const input = mergeInput(body, base);
      await this.validate(em, event, input);
      this.apply(list, input);
      await this.setProducts(em, list.id, input.limit_products);
      const after = await this.present(em, list);
      if (!isDeepStrictEqual(before, after)) {
        list.lastModified = new Date();
        await em.save(list);
        await this.audit.recordOnEvent(
          em,
          principal,
          event,
          CONTENT_TYPE,
          list.id,
          'pretix.event.checkinlist.changed',
          body,
        );
      }
      return after;
    });
  }

  /**
   * Deletes a list and every check-in made on it (compat §3.20); logs `pretix.event.checkinlist.deleted`.
   * @throws NotFound for an id that is not a list of this event
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const list = await this.load(em, event, id, true);
      await this.audit.recordOnEvent(
        em,
        principal,
        event,
        CONTENT_TYPE,
        list.id,
        'pretix.event.checkinlist.deleted',
        {},
      );
      await em.delete(CheckinList, { id: list.id, eventId: event.id });
    });
  }

  /**
   * `status/` (compat §3.20): counts per product of the list and variation, and in all; names as plain texts
   * ({@link statusText}); `event.name` is the date's name for a list of one date (pretix `clist.subevent or
   * clist.event`). Four statements (five for a list of one date).
   * @throws NotFound for an id that is not a list of this event
   */
  async status(event: Event, id: number): Promise<CheckinListStatus> {
    const scope = await this.scope(undefined, event, id, 'self');
    const rows = await this.positions.status(this.db, scope);
    const catalogue = await this.catalogue.statusCatalogue(this.db, event.id);
    const date =
      scope.subeventId === null
        ? undefined
        : (await new SubEventQueries().subeventLabels(this.db, [scope.subeventId])).get(scope.subeventId);
    const sum = (f: (r: (typeof rows)[number]) => boolean, key: 'positions' | 'checked_in') =>
      rows.filter(f).reduce((n, r) => n + r[key], 0);
    return {
      checkin_count: sum(() => true, 'checked_in'),
      position_count: sum(() => true, 'positions'),
      inside_count: rows.reduce((n, r) => n + r.inside, 0),
      event: { name: statusText(date ? date.name : event.name) },
      items: catalogue
        .filter((i) => scope.allProducts || scope.itemIds.includes(i.id))
        .map((i) => ({
          id: i.id,
          name: statusText(i.name),
          admission: i.admission,
          checkin_count: sum((r) => r.item_id === i.id, 'checked_in'),
          position_count: sum((r) => r.item_id === i.id, 'positions'),
          variations: i.variations.map((v) => ({
            id: v.id,
            value: statusText(v.value),
            checkin_count: sum((r) => r.variation_id === v.id, 'checked_in'),
            position_count: sum((r) => r.variation_id === v.id, 'positions'),
          })),
        })),
    };
  }

  /**
   * The list as the check-in positions and redeems need it, with its products (one statement).
   * @param missing `parent` for the list's nested routes (`positions/`, `redeem/`, `failed_checkins/`), `self` for
   *   an action of the list itself (`status/`)
   * @throws ParentNotFound (403; spec: a missing parent is 403) or NotFound (404, `self`) for an id that is not a
   *   list of this event
   */
  async scope(
    emOrNone: EntityManager | undefined,
    event: Event,
    id: number,
    missing: 'parent' | 'self' = 'parent',
  ): Promise<ListScope & { list: CheckinList; itemIds: number[] }> {
    const found = (await this.scopes(emOrNone, [id])).get(id);
    if (!found || found.eventId !== event.id)
      throw missing === 'parent' ? new ParentNotFound() : new NotFound();
    return found;
  }

  /** Lists by id, of any event (callers check the event), as {@link scope} gives them; one statement. */
  async scopes(
    emOrNone: EntityManager | undefined,
    ids: readonly number[],
  ): Promise<Map<number, ListScope & { list: CheckinList; itemIds: number[] }>> {
    const found = await this.queries.listsWithItems(emOrNone ?? this.db, ids);
    return new Map(found.map(({ list, itemIds }) => [list.id, { ...scopeOf(list), list, itemIds }]));
  }

  private async present(em: EntityManager, list: CheckinList): Promise<CheckinListJson> {
    const row = (await this.queries.listRelated(em, list.id, this.positions.listCountsSql())) ?? {
      items: [],
      positions: 0,
      checkins: 0,
    };
    return toCheckinListJson(list, row.items, { positions: row.positions, checkins: row.checkins });
  }

  private async load(em: EntityManager, event: Event, id: number, lock: boolean): Promise<CheckinList> {
    return findOrNotFound(em, CheckinList, { id, eventId: event.id }, lock);
  }

  private async validate(em: EntityManager, event: Event, input: ListInput): Promise<void> {
    const errors = new ErrorCollector();
    const rules = rulesProblem(input.rules);
    if (rules) errors.add('rules', rules);
    const wanted = [...new Set(input.limit_products)];
    const known = await this.catalogue.itemIdsOfEvent(em, event.id, wanted);
    if (wanted.some((id) => !known.has(id))) errors.addNonField(ITEMS_OF_OTHER_EVENT);
    // A list of a series may be of one date or of all (null); a single event's lists take no date (compat §3.20).
    if (input.subevent !== null) {
      const found = await new SubEventQueries().subeventsByIds(em, [input.subevent]);
      if (!event.hasSubevents || found.get(input.subevent)?.eventId !== event.id) {
        errors.addNonField(SUBEVENT_OF_OTHER_EVENT);
      }
    }
    errors.throwIfAny();
  }

  private apply(list: CheckinList, input: ListInput): void {
    list.name = input.name;
    list.allProducts = input.all_products;
    list.subeventId = input.subevent;
    list.includePending = input.include_pending;
    list.allowMultipleEntries = input.allow_multiple_entries;
    list.allowEntryAfterExit = input.allow_entry_after_exit;
    list.addonMatch = input.addon_match;
    list.exitAllAt = input.exit_all_at === null ? null : new Date(input.exit_all_at);
    list.rules = input.rules;
    list.ignoreInStatistics = input.ignore_in_statistics;
    list.considerTicketsUsed = input.consider_tickets_used;
  }

  private async setProducts(em: EntityManager, listId: number, itemIds: readonly number[]): Promise<void> {
    await em.delete(CheckinListProduct, { listId });
    const ids = [...new Set(itemIds)];
    if (ids.length === 0) return;
    await this.queries.insertListItems(em, listId, ids);
  }
}

/** The list's settings the position queries need. */
export function scopeOf(list: CheckinList): ListScope {
  return {
    id: list.id,
    eventId: list.eventId,
    allProducts: list.allProducts,
    subeventId: list.subeventId,
    includePending: list.includePending,
  };
}

/** The wire object without the fields `?exclude=` names. */
function dropFields(json: CheckinListJson, exclude: ReadonlySet<string>): CheckinListJson {
  if (exclude.size === 0) return json;
  const out: Record<string, unknown> = { ...json };
  for (const field of exclude) if (field !== 'id') delete out[field];
  return out as unknown as CheckinListJson;
}
