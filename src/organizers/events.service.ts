import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, QueryFailedError } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { ErrorCollector, NotFound, Refused, ValidationFailed } from '../common/errors';
import { EVENT_SEATING, EventSeating } from './event-seating.port';
import { uniqueAsValidation } from '../common/persistence/unique';
import { copyRows } from '../common/persistence/copy-rows.queries';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../common/persistence/write';
import { parseDateTime, parseDateTimeOrNull } from '../common/values/datetime';
import { toI18n, toI18nOrNull } from '../common/values/i18n';
import type { CreateEventDto } from './event.dto';
import { Event } from './event.entity';
import { EventHooks } from './event-hooks';
import { EventQueries } from './event.queries';
import { EventJson, toEventJson } from './event.presenter';
import { EVENT_USAGE, EventUsage } from './event-usage.port';
import { EVENT_ITEM_META, EventItemMeta } from './event-item-meta.port';
import type { Organizer } from './organizer.entity';
import { checkMetaData } from './meta-properties/meta-data';
import { AppConfig } from '../config/app-config';
import { checkPlugins } from './plugins';
import { normalizeChannels, translateSalesChannels } from './sales-channels/channel-fields';
import { SalesChannelDirectory } from './sales-channels/sales-channel-directory.queries';

const DUPLICATE_SLUG = 'This slug has already been used for a different event.';

/** pretix's refusal to delete an event with orders (compat §4.2). */
const HAS_ORDERS =
  "The event can not be deleted as it already contains orders. Please set 'live' to false to hide the event and take the shop offline instead.";

/** pretix's refusal to turn a series with dates or orders into a single event or back (compat §4.2). */
export const SERIES_FIXED = 'Once created an event cannot change between an series and a single event.';

/** Defaults of optional event fields (compat §4.2); PUT resets omitted ones to these. */
const EVENT_DEFAULTS = {
  live: false,
  testmode: false,
  date_to: null,
  date_admission: null,
  is_public: true,
  presale_start: null,
  presale_end: null,
  location: null,
  geo_lat: null,
  geo_lon: null,
  has_subevents: false,
  meta_data: {},
  timezone: 'UTC',
  seating_plan: null,
  seat_category_mapping: {},
  all_sales_channels: true,
  limit_sales_channels: [] as string[],
  plugins: [] as string[],
} satisfies Partial<EventInput>;

/** pretix's answer to a `clone_from` it cannot use. */
const CLONE_SOURCE_NOT_FOUND = 'Event to copy from was not found';

type EventInput = Complete<Omit<CreateEventDto, 'item_meta_properties' | 'sales_channels'>>;

/** Events of an organizer: list, detail, create, update, delete (compat §4.2; spec "Conventions"). */
@Injectable()
export class EventsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly hooks: EventHooks,
    @Inject(EVENT_USAGE) private readonly usage: EventUsage,
    @Inject(EVENT_SEATING) private readonly seating: EventSeating,
    @Inject(EVENT_ITEM_META) private readonly itemMeta: EventItemMeta,
    private readonly queries: EventQueries,
    private readonly channels: SalesChannelDirectory,
    private readonly config: AppConfig,
  ) {}

  /**
   * The wire form (see `EventPresentation`); `channels` are the organizer's channel identifiers, `itemMeta` the
   * event's item meta properties (name to default).
   */
  private presentWith(
    organizer: Organizer,
    event: Event,
    channels: readonly string[],
    withValidKeys: boolean,
    itemMeta: Record<string, string>,
  ): EventJson {
    return toEventJson(event, {
      siteUrl: this.config.siteUrl,
      organizerSlug: organizer.slug,
      channels,
      withValidKeys,
      itemMeta,
    });
  }

  /** {@link presentWith}, the item meta properties read through the EVENT_ITEM_META port (one statement). */
  private async present(
    em: EntityManager,
    organizer: Organizer,
    event: Event,
    channels: readonly string[],
    withValidKeys: boolean,
  ): Promise<EventJson> {
    const itemMeta = (await this.itemMeta.defaults(em, [event.id])).get(event.id) ?? {};
    return this.presentWith(organizer, event, channels, withValidKeys, itemMeta);
  }

  /** The writable fields of the current event (the base a PATCH is merged onto). */
  private writable(organizer: Organizer, event: Event): EventInput {
    const json = this.presentWith(organizer, event, [], false, {});
    const { public_url: _u, valid_keys: _k, sales_channels: _s, item_meta_properties: _m, ...rest } = json;
    return rest;
  }

  /**
   * The body with the legacy `sales_channels` translated and `plugins` checked (pretix's rules, errors added to
   * `errors`).
   */
  private async preprocess(
    em: EntityManager,
    organizer: Organizer,
    body: Partial<CreateEventDto>,
    errors: ErrorCollector,
  ): Promise<{ body: Partial<EventInput>; channels: string[] }> {
    const channels = await this.channels.identifiers(em, organizer.id);
    const translated = translateSalesChannels(body, errors, channels);
    if (body.plugins !== undefined) checkPlugins(body.plugins, 'event', errors);
    return { body: translated, channels };
  }

  /**
   * Lists the events of an organizer the principal reaches. Filters `live`, `has_subevents`, `is_public`,
   * `testmode`, `is_future`, `is_past`, `ends_after`, `sales_channel`; ordering `date_from`, `slug` (default
   * `slug`). One statement for the organizer's channels besides the page's two.
   */
  async list(
    organizer: Organizer,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<EventJson>> {
    const channels = await this.channels.identifiers(this.db, organizer.id);
    const rows = await this.queries.page(this.db, organizer.id, principal, filters, page, (r) => r);
    const itemMeta = await this.itemMeta.defaults(
      this.db,
      rows.items.map((e) => e.id),
    );
    return rows.withItems(
      rows.items.map((e) => this.presentWith(organizer, e, channels, false, itemMeta.get(e.id) ?? {})),
    );
  }

  /** The guard-resolved event with `valid_keys` (one statement for the organizer's channels, one for item meta). */
  async get(organizer: Organizer, event: Event): Promise<EventJson> {
    const channels = await this.channels.identifiers(this.db, organizer.id);
    return this.present(this.db, organizer, event, channels, true);
  }

  /**
   * Creates an event. When the creating token's team does not reach all events, the new event is added to its
   * `limit_events` so the creator can use it.
   * @throws ValidationFailed on invalid fields, a duplicate slug or a live event
   */
  async create(organizer: Organizer, principal: Principal, body: CreateEventDto): Promise<EventJson> {
    const { item_meta_properties: itemMeta, ...fields } = body;
    return uniqueAsValidation('uq_event_organizer_slug_ci', 'slug', DUPLICATE_SLUG, () =>
      this.db.transaction(async (em) => {
        const errors = new ErrorCollector();
        const pre = await this.preprocess(em, organizer, fields, errors);
        const input = mergeInput(pre.body, { ...EVENT_DEFAULTS } as EventInput);
        const meta = await this.validate(em, organizer, principal, input, 'create', null, errors);
        const event = em.create(Event, { organizerId: organizer.id });
        this.apply(event, { ...input, meta_data: meta });
        await em.save(event);
        await this.seating.apply(em, event.id, event.seatingPlanId, event.seatCategoryMapping);
        if (itemMeta !== undefined) await this.itemMeta.replace(em, event.id, itemMeta);
        await this.hooks.eventCreated(em, event, principal);
        await this.audit.record(em, principal, {
          organizerId: organizer.id,
          eventId: event.id,
          contentType: 'event',
          objectId: event.id,
          action: 'pretix.event.added',
          data: { ...body },
        });
        return this.present(em, organizer, event, pre.channels, false);
      }),
    );
  }

  /**
   * `POST O/events/?clone_from=` (pretix `EventViewSet.perform_create` with `clone_from`): {@link clone} from the
   * event named by `cloneFrom` (`<event>` or `<organizer>/<event>`), which must be an event of this organizer the
   * principal reaches.
   * @throws ValidationFailed `["Event to copy from was not found"]` for an unknown or unreachable source or one of
   *   another organizer (copying across organizers would carry their channels and membership types along)
   */
  async createFrom(
    organizer: Organizer,
    principal: Principal,
    body: CreateEventDto,
    cloneFrom: string,
  ): Promise<EventJson> {
    const [orgSlug, eventSlug] = cloneFrom.includes('/')
      ? cloneFrom.split('/', 2)
      : [organizer.slug, cloneFrom];
    const source =
      orgSlug.toLowerCase() === organizer.slug.toLowerCase() && eventSlug
        ? await this.db.findOne(Event, { where: { organizerId: organizer.id, slug: eventSlug } })
        : null;
    if (!source || !principal.canAccessEvent(organizer.id, source.id)) {
      throw ValidationFailed.bare(CLONE_SOURCE_NOT_FOUND);
    }
    return this.clone(organizer, source, principal, body);
  }

  /**
   * `POST E/clone/` (pretix `CloneEventSerializer` + `Event.copy_data_from`; compat §4.2): creates an event from
   * the body (an event create body, checked as on create) and copies the source's data into it, all in one
   * transaction. Taken from the body: name, slug, currency, dates, presale, location, geo, `live` (must be
   * false), `has_subevents`; `meta_data` when sent (else the source's). Taken from the body only when sent,
   * else from the source: `is_public`, `testmode`, `timezone`, `date_admission` (the source's shifted by the new
   * `date_from`). The seating plan is the source's when it has one (seat category mapping pointed at the
   * copied items, seats generated from the plan). Every other column of the event row is the source's (copied
   * from the entity metadata). Then each context copies its part ({@link EventHooks.copyEventData}).
   * Logged `pretix.event.added` (the body) and `pretix.object.cloned` (`{source, source_id}`).
   * @throws ValidationFailed as on create (duplicate slug, `live`, dates, meta data, seating)
   */
  async clone(
    organizer: Organizer,
    source: Event,
    principal: Principal,
    body: CreateEventDto,
  ): Promise<EventJson> {
    const { item_meta_properties: _itemMeta, ...fields } = body;
    return uniqueAsValidation('uq_event_organizer_slug_ci', 'slug', DUPLICATE_SLUG, () =>
      this.db.transaction(async (em) => {
        const errors = new ErrorCollector();
        const pre = await this.preprocess(em, organizer, fields, errors);
        const input = mergeInput(pre.body, { ...EVENT_DEFAULTS } as EventInput);
        if (source.seatingPlanId !== null && !input.has_subevents) input.seating_plan = source.seatingPlanId;
        const meta = await this.validate(em, organizer, principal, input, 'create', null, errors);
        const dateFrom = parseDateTime(input.date_from);
        const shifted =
          source.dateAdmission === null
            ? null
            : new Date(dateFrom.getTime() + (source.dateAdmission.getTime() - source.dateFrom.getTime()));
        const sent = (key: keyof CreateEventDto) => body[key] !== undefined;
        const value = (v: unknown) => ({ value: v });
        const jsonValue = (v: unknown) => value(v === null ? null : JSON.stringify(v));
        const columns: Record<string, { value: unknown }> = {
          organizer_id: value(organizer.id),
          name: jsonValue(toI18n(input.name)),
          slug: value(input.slug),
          live: value(false),
          currency: value(input.currency),
          date_from: value(dateFrom),
          date_to: value(parseDateTimeOrNull(input.date_to)),
          date_admission: value(sent('date_admission') ? parseDateTimeOrNull(input.date_admission) : shifted),
          presale_start: value(parseDateTimeOrNull(input.presale_start)),
          presale_end: value(parseDateTimeOrNull(input.presale_end)),
          location: jsonValue(toI18nOrNull(input.location)),
          geo_lat: value(input.geo_lat === null ? null : Number(input.geo_lat)),
          geo_lon: value(input.geo_lon === null ? null : Number(input.geo_lon)),
          has_subevents: value(input.has_subevents),
          seating_plan_id: value(input.seating_plan),
          seat_category_mapping: jsonValue({}),
        };
        if (sent('meta_data')) columns.meta_data = jsonValue(meta);
        if (sent('is_public')) columns.is_public = value(input.is_public);
        if (sent('testmode')) columns.testmode = value(input.testmode);
        if (sent('timezone')) columns.timezone = value(input.timezone);
        if (sent('all_sales_channels') || sent('limit_sales_channels') || sent('sales_channels')) {
          columns.all_sales_channels = value(input.all_sales_channels);
          columns.limit_sales_channels = value(
            input.all_sales_channels ? [] : normalizeChannels(input.limit_sales_channels),
          );
        }
        const ids = await copyRows(em, { entity: Event, where: 's.id = $1', params: [source.id], columns });
        const target = await em.findOneByOrFail(Event, { id: ids.get(source.id)! });
        await this.hooks.eventCreated(em, target, principal);
        const maps = new Map<string, ReadonlyMap<number, number>>();
        const logCloned = async (contentType: string, newIds: Iterable<number>) => {
          for (const objectId of newIds) {
            await this.audit.record(em, principal, {
              organizerId: organizer.id,
              eventId: target.id,
              contentType,
              objectId,
              action: 'pretix.object.cloned',
            });
          }
        };
        await this.hooks.copyEventData({ em, source, target, principal, maps, logCloned });
        if (target.seatingPlanId !== null) {
          const items = maps.get('item') ?? new Map<number, number>();
          target.seatCategoryMapping = Object.fromEntries(
            Object.entries(source.seatCategoryMapping).map(([category, item]) => [
              category,
              item === null ? null : (items.get(item) ?? null),
            ]),
          );
          await em.update(Event, { id: target.id }, { seatCategoryMapping: target.seatCategoryMapping });
          await this.seating.apply(em, target.id, target.seatingPlanId, target.seatCategoryMapping);
        }
        const log = {
          organizerId: organizer.id,
          eventId: target.id,
          contentType: 'event',
          objectId: target.id,
        };
        await this.audit.record(em, principal, { ...log, action: 'pretix.event.added', data: { ...body } });
        await this.audit.record(em, principal, {
          ...log,
          action: 'pretix.object.cloned',
          data: { source: source.slug, source_id: source.id },
        });
        const channels = await this.channels.identifiers(em, organizer.id);
        const clone = await em.findOneByOrFail(Event, { id: target.id });
        return this.present(em, organizer, clone, channels, false);
      }),
    );
  }

  /** PUT (`replace`) or PATCH (`patch`) of an event; rules are checked on the merged data. */
  async update(
    organizer: Organizer,
    current: Event,
    principal: Principal,
    body: Partial<CreateEventDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<EventJson> {
    return this.db.transaction(async (em) => {
      const event = await em.findOne(Event, {
        where: { id: current.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!event) throw new NotFound();
      const { item_meta_properties: itemMeta, ...fields } = body;
      const base: EventInput =
        mode === 'patch' ? this.writable(organizer, event) : ({ ...EVENT_DEFAULTS } as EventInput);
      const errors = new ErrorCollector();
      const pre = await this.preprocess(em, organizer, fields, errors);
      const input = mergeInput(pre.body, base);
      const meta = await this.validate(em, organizer, principal, input, mode, event, errors);
      const seatingBefore = JSON.stringify([event.seatingPlanId, event.seatCategoryMapping]);
      this.apply(event, { ...input, meta_data: meta });
      await em.save(event);
      if (JSON.stringify([event.seatingPlanId, event.seatCategoryMapping]) !== seatingBefore) {
        await this.seating.apply(em, event.id, event.seatingPlanId, event.seatCategoryMapping);
      }
      if (itemMeta !== undefined) await this.itemMeta.replace(em, event.id, itemMeta);
      if (Object.keys(body).length > 0) {
        await this.audit.record(em, principal, {
          organizerId: organizer.id,
          eventId: event.id,
          contentType: 'event',
          objectId: event.id,
          action: 'pretix.event.changed',
          data: { ...body },
        });
      }
      return this.present(em, organizer, event, pre.channels, true);
    });
  }

  /**
   * Deletes an event and everything it owns.
   * @throws Refused (403) when the event already contains orders (compat §4.2)
   */
  async delete(organizer: Organizer, event: Event, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      // The row lock first: sales share-lock the event (TenancyQueries.lockEventForSale), so an order being
      // created commits before this check sees it, and none starts until this transaction ends.
      if (!(await this.queries.lockForDelete(em, event.id))) throw new NotFound();
      if (await this.usage.hasOrders(em, event.id)) throw new Refused(HAS_ORDERS);
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        eventId: null,
        contentType: 'event',
        objectId: event.id,
        action: 'pretix.event.deleted',
        data: { slug: event.slug },
      });
      try {
        await em.delete(Event, { id: event.id });
      } catch (err) {
        // The database's own guard (sales keys are RESTRICT): never reached while the lock above is taken.
        if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23503') {
          throw new Refused(HAS_ORDERS);
        }
        throw err;
      }
    });
  }

  /**
   * Checks the merged input against the event rules (compat §4.2).
   * @returns the `meta_data` to store (protected properties kept unless the principal may write them)
   * @throws ValidationFailed with every field error found
   */
  private async validate(
    em: EntityManager,
    organizer: Organizer,
    principal: Principal,
    input: EventInput,
    mode: WriteMode,
    existing: Event | null,
    errors: ErrorCollector,
  ): Promise<Record<string, string>> {
    if (mode === 'create' && input.live) {
      errors.add(
        'live',
        "Events cannot be created as 'live'. Quotas and payment must be added to the event before sales can go live.",
      );
    }
    if (existing && input.live && !existing.live) {
      const refusal = await this.hooks.checkGoLive(em, existing);
      if (refusal) errors.add('live', refusal);
    }
    if (existing && input.has_subevents !== existing.hasSubevents) {
      if ((await this.queries.hasDates(em, existing.id)) || (await this.usage.hasOrders(em, existing.id)))
        errors.add('has_subevents', SERIES_FIXED);
    }
    if (existing && input.slug !== existing.slug) {
      errors.add('slug', 'The event slug cannot be changed.');
    } else if (!existing) {
      const clash = await this.queries.slugTaken(em, organizer.id, input.slug);
      if (clash) errors.add('slug', DUPLICATE_SLUG);
    }
    const from = parseDateTime(input.date_from);
    const to = parseDateTimeOrNull(input.date_to);
    if (to && to < from) errors.addNonField('The event cannot end before it starts.');
    const ps = parseDateTimeOrNull(input.presale_start);
    const pe = parseDateTimeOrNull(input.presale_end);
    if (ps && pe && pe < ps) errors.addNonField("The event's presale cannot end before it starts.");
    // A PATCH without meta_data keeps the stored values as they are (even if a property changed since).
    const meta =
      mode === 'patch' && existing && input.meta_data === existing.metaData
        ? { values: existing.metaData, errors: [] }
        : await checkMetaData(em, organizer.id, principal, input.meta_data ?? {}, existing?.metaData ?? {});
    for (const message of meta.errors) errors.add('meta_data', message);
    const seating = await this.seating.check(
      em,
      organizer.id,
      existing?.id ?? null,
      input.seating_plan ?? null,
      input.seat_category_mapping ?? {},
      input.has_subevents,
    );
    for (const [field, messages] of Object.entries(seating ?? {})) {
      for (const message of messages as string[]) errors.add(field, message);
    }
    if (Object.keys(input.seat_category_mapping ?? {}).length > 0) {
      if (mode === 'create')
        errors.addNonField('You cannot specify seat category mappings on event creation.');
      else if (input.seating_plan === null || input.seating_plan === undefined)
        errors.add(
          'seat_category_mapping',
          'You cannot specify seat category mappings without a seating plan.',
        );
    }
    errors.throwIfAny();
    return meta.values ?? {};
  }

  private apply(event: Event, input: EventInput): void {
    event.name = toI18n(input.name);
    event.slug = input.slug;
    event.live = input.live;
    event.testmode = input.testmode;
    event.currency = input.currency;
    event.dateFrom = parseDateTime(input.date_from);
    event.dateTo = parseDateTimeOrNull(input.date_to);
    event.dateAdmission = parseDateTimeOrNull(input.date_admission);
    event.isPublic = input.is_public;
    event.presaleStart = parseDateTimeOrNull(input.presale_start);
    event.presaleEnd = parseDateTimeOrNull(input.presale_end);
    event.location = toI18nOrNull(input.location);
    event.geoLat = input.geo_lat === null ? null : Number(input.geo_lat);
    event.geoLon = input.geo_lon === null ? null : Number(input.geo_lon);
    event.hasSubevents = input.has_subevents;
    event.metaData = input.meta_data;
    event.timezone = input.timezone;
    event.seatingPlanId = input.seating_plan;
    event.seatCategoryMapping = input.seat_category_mapping;
    event.allSalesChannels = input.all_sales_channels;
    event.limitSalesChannels = input.all_sales_channels ? [] : normalizeChannels(input.limit_sales_channels);
  }
}
