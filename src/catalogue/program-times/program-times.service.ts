import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ValidationFailed } from '../../common/errors';
import type { Related } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { findOrNotFound } from '../../common/persistence/find';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { parseDateTime } from '../../common/values/datetime';
import { toI18nOrNull } from '../../common/values/i18n';
import type { Event } from '../../organizers/event.entity';
import { findEventItem } from '../items/item-lookup';
import { CreateProgramTimeDto } from './program-time.dto';
import { ProgramTimeJson, toProgramTimeJson } from './program-time.presenter';
import { ProgramTimeQueries } from './program-time.queries';
import { programTimeProblem, SERIES_REFUSED } from './program-time.rules';
import { ItemProgramTime } from './item-program-time.entity';

/** The merged input a write applies. */
type ProgramTimeInput = Complete<CreateProgramTimeDto>;

/** Defaults of optional fields; PUT resets omitted ones to these. */
const DEFAULTS: Omit<ProgramTimeInput, 'start' | 'end'> = { location: null };

/** Program time changes are logged on the item (pretix), so the item list's `Last-Modified` moves with them. */
const CONTENT_TYPE = 'item';

/**
 * Program times of one item (`E/items/{item}/program_times/`, pretix 2025+), and the pieces item create uses for
 * inline program times. On an event series every route answers 400 `["You cannot use program times on an event
 * series."]` (pretix's queryset refusal; a create `{"non_field_errors": [...]}`). Logs
 * `pretix.event.item.program_times.added|changed|removed` on the item.
 */
@Injectable()
export class ProgramTimesService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: ProgramTimeQueries,
  ) {}

  /**
   * One page of the item's program times, ordering `id` (default). Three statements at most.
   * @throws ValidationFailed (bare list) on an event series
   * @throws ParentNotFound (403) when the item is not an item of this event
   */
  async list(
    event: Event,
    itemId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<ProgramTimeJson>> {
    refuseSeries(event);
    const item = await findEventItem(this.db, event.id, itemId);
    return this.queries.page(this.db, item.id, filters, page, (rows) => rows.map(toProgramTimeJson));
  }

  /**
   * @throws ValidationFailed (bare list) on an event series
   * @throws ParentNotFound (403) for an unknown item of this event; NotFound for a program time of another item
   */
  async get(event: Event, itemId: number, id: number): Promise<ProgramTimeJson> {
    refuseSeries(event);
    const item = await findEventItem(this.db, event.id, itemId);
    return toProgramTimeJson(await this.load(this.db, item.id, id, false));
  }

  /**
   * Creates a program time; logs `pretix.event.item.program_times.added` on the item.
   * @throws ParentNotFound (403) when the item is not an item of this event
   * @throws ValidationFailed `{"non_field_errors": [...]}` when the end lies before the start or the event is a
   *   series
   */
  async create(
    event: Event,
    principal: Principal,
    itemId: number,
    body: CreateProgramTimeDto,
  ): Promise<ProgramTimeJson> {
    return this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const input = mergeInput(body, { ...DEFAULTS } as ProgramTimeInput);
      validate(event, input);
      const programTime = em.create(ItemProgramTime, { eventId: event.id, itemId: item.id });
      apply(programTime, input);
      await em.save(programTime);
      await this.audit.recordOnEvent(
        em,
        principal,
        event,
        CONTENT_TYPE,
        item.id,
        'pretix.event.item.program_times.added',
        {
          ...body,
          id: programTime.id,
        },
      );
      return toProgramTimeJson(programTime);
    });
  }

  /**
   * PUT (`replace`) or PATCH (`patch`); the rule is checked on the merged data. Logs
   * `pretix.event.item.program_times.changed` only when the wire object changed.
   * @throws ValidationFailed (bare list) on an event series; as {@link create} otherwise
   * @throws ParentNotFound (403) for an unknown item of this event; NotFound for a program time of another item
   */
  async update(
    event: Event,
    principal: Principal,
    itemId: number,
    id: number,
    body: Partial<CreateProgramTimeDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<ProgramTimeJson> {
    refuseSeries(event);
    return this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const programTime = await this.load(em, item.id, id, true);
      const before = toProgramTimeJson(programTime);
      const input = mergeInput(body, mode === 'patch' ? before : ({ ...DEFAULTS } as ProgramTimeInput));
      validate(event, input);
      apply(programTime, input);
      const after = toProgramTimeJson(programTime);
      if (!isDeepStrictEqual(before, after)) {
        await em.save(programTime);
        await this.audit.recordOnEvent(
          em,
          principal,
          event,
          CONTENT_TYPE,
          item.id,
          'pretix.event.item.program_times.changed',
          {
            ...body,
            id: programTime.id,
          },
        );
      }
      return after;
    });
  }

  /**
   * Deletes a program time; logs `pretix.event.item.program_times.removed` on the item with its `start` and `end`.
   * @throws ValidationFailed (bare list) on an event series
   * @throws ParentNotFound (403) for an unknown item of this event; NotFound for a program time of another item
   */
  async delete(event: Event, principal: Principal, itemId: number, id: number): Promise<void> {
    refuseSeries(event);
    await this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const programTime = await this.load(em, item.id, id, true);
      await em.delete(ItemProgramTime, { id: programTime.id, itemId: item.id });
      const { start, end } = toProgramTimeJson(programTime);
      await this.audit.recordOnEvent(
        em,
        principal,
        event,
        CONTENT_TYPE,
        item.id,
        'pretix.event.item.program_times.removed',
        { start, end },
      );
    });
  }

  /**
   * Checks an item's inline program times on create: pretix's messages as one flat list (each message once),
   * empty when all are valid. pretix does not refuse inline program times on an event series; neither does this.
   */
  checkInline(bodies: CreateProgramTimeDto[]): string[] {
    const messages = new Set<string>();
    for (const body of bodies) {
      const problem = programTimeProblem(body.start, body.end);
      if (problem) messages.add(problem);
    }
    return [...messages];
  }

  /** Inserts checked inline program times of a new item (same transaction); returns them in input order. */
  async insertInline(
    em: EntityManager,
    eventId: number,
    itemId: number,
    bodies: CreateProgramTimeDto[],
  ): Promise<ItemProgramTime[]> {
    const rows = bodies.map((body) => {
      const programTime = em.create(ItemProgramTime, { eventId, itemId });
      apply(programTime, mergeInput(body, { ...DEFAULTS } as ProgramTimeInput));
      return programTime;
    });
    if (rows.length > 0) await em.save(rows);
    return rows;
  }

  /** The program times of the item whose id is the SQL expression `itemId`, by id, in the item's statement. */
  relatedToItem(itemId: string): Related<ItemProgramTime[]> {
    return this.queries.relatedToItem(this.db, itemId);
  }

  private load(em: EntityManager, itemId: number, id: number, lock: boolean): Promise<ItemProgramTime> {
    return findOrNotFound(em, ItemProgramTime, { id, itemId }, lock);
  }
}

/** @throws ValidationFailed (bare list, pretix's queryset refusal) when the event is a series */
function refuseSeries(event: Event): void {
  if (event.hasSubevents) throw ValidationFailed.bare(SERIES_REFUSED);
}

/** @throws ValidationFailed `non_field_errors` with the first broken rule, in pretix's order */
function validate(event: Event, input: ProgramTimeInput): void {
  const problem = programTimeProblem(input.start, input.end);
  if (problem) throw ValidationFailed.nonField(problem);
  if (event.hasSubevents) throw ValidationFailed.nonField(SERIES_REFUSED);
}

function apply(programTime: ItemProgramTime, input: ProgramTimeInput): void {
  programTime.startsAt = parseDateTime(input.start);
  programTime.endsAt = parseDateTime(input.end);
  programTime.location = toI18nOrNull(input.location);
}
