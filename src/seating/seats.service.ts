import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, FindOptionsWhere, IsNull } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { NotFound, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { findOrNotFound } from '../common/persistence/find';
import type { Event } from '../organizers/event.entity';
import type { BulkSeatsDto } from './seat.dto';
import { Seat } from './seat.entity';
import { SEAT_TEXT_FILTERS, SeatQueries } from './seat.queries';
import { SeatJson, toSeatJson } from './seat.presenter';
import { SEAT_HOLDERS, SeatHolders } from './seat-holders.port';
import { eventSeatScope, SEAT_FORM_MESSAGES, SeatScope, subeventSeatScope } from './seat-scope';

/**
 * Seats of a scope (compat §3.18): those of an event without dates (`E/seats/`) or of one date of a series
 * (`E/subevents/{id}/seats/`); the controllers resolve the scope ({@link SeatScope}), which also answers the
 * wrong URL form with 404. List with filters, detail, PATCH of `blocked`, bulk block and unblock.
 */
@Injectable()
export class SeatsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    @Inject(SEAT_HOLDERS) private readonly holders: SeatHolders,
    private readonly queries: SeatQueries,
  ) {}

  /** One page of the scope's seats in plan order; filters of compat §3.18. One SQL statement. */
  async list(
    event: Event,
    subevent: number | null,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<SeatJson>> {
    const scope = await this.scope(this.db, event, subevent);
    const text: [name: string, value: string][] = [];
    for (const name of SEAT_TEXT_FILTERS) {
      const value = filters.str(name);
      if (value !== undefined) text.push([name, value]);
    }
    const blocked = filters.bool('blocked');
    const holders = await this.holders.ofScope(this.db, scope, new Date());
    const held = [...holders.keys()];
    const available = filters.bool('is_available');
    const result = await this.queries.seatsPage(
      this.db,
      scope,
      { text, blocked, available, held },
      filters,
      page,
      (rows) => rows.map((s) => toSeatJson(s, holders.get(s.id))),
    );
    await this.expand(result.items, filters);
    return result;
  }

  /** @throws NotFound for a seat that is not one of the scope's */
  async get(event: Event, subevent: number | null, id: number, filters: QueryFilters): Promise<SeatJson> {
    // The date is resolved only when no seat is found (which 404 message), so a found seat costs no lookup.
    const scope = subevent === null ? eventSeatScope(event) : subeventScopeUnchecked(event, subevent);
    const seat = await this.db.findOne(Seat, { where: seatWhere(scope, id) });
    if (!seat) {
      await this.scope(this.db, event, subevent);
      throw new NotFound();
    }
    const holders = await this.holders.ofScope(this.db, scope, new Date());
    const [json] = await this.expand([toSeatJson(seat, holders.get(seat.id))], filters);
    return json;
  }

  /**
   * Replaces the holder ids asked for by `?expand=` with the nested objects (the controller checked the
   * permissions), in place; one statement per kind.
   */
  private async expand(seats: SeatJson[], filters: QueryFilters): Promise<SeatJson[]> {
    const wanted = filters.expand(['orderposition', 'cartposition', 'voucher']);
    if (wanted.size === 0) return seats;
    const ids = (kind: 'orderposition' | 'cartposition' | 'voucher') =>
      wanted.has(kind) ? seats.flatMap((s) => (typeof s[kind] === 'number' ? [s[kind]] : [])) : [];
    const nested = await this.holders.expand(this.db, {
      orderposition: ids('orderposition'),
      cartposition: ids('cartposition'),
      voucher: ids('voucher'),
    });
    for (const s of seats) {
      for (const kind of ['orderposition', 'cartposition', 'voucher'] as const) {
        const id = s[kind];
        if (wanted.has(kind) && typeof id === 'number') s[kind] = nested[kind].get(id) ?? null;
      }
    }
    return seats;
  }

  /** Sets `blocked`; logs `pretix.event.seats.blocks.changed` when it changed. */
  async setBlocked(
    event: Event,
    subevent: number | null,
    id: number,
    blocked: boolean,
    principal: Principal,
  ): Promise<SeatJson> {
    return this.db.transaction(async (em) => {
      const scope = await this.scope(em, event, subevent);
      const seat = await findOrNotFound(em, Seat, seatWhere(scope, id), true);
      if (seat.blocked !== blocked) {
        seat.blocked = blocked;
        await em.update(Seat, { id: seat.id }, { blocked });
        await this.log(em, event, principal, { seats: [seat.id], blocked });
      }
      const holders = await this.holders.ofScope(em, scope, new Date());
      return toSeatJson(seat, holders.get(seat.id));
    });
  }

  /**
   * Blocks or unblocks the named seats, all or nothing, in a fixed number of statements; seats already in that
   * state (or sold) are no error.
   * @throws ValidationFailed neither or both of `ids` and `seat_guids`, an unknown seat (more than 10,000: the DTO)
   */
  async bulk(
    event: Event,
    subevent: number | null,
    body: BulkSeatsDto,
    blocked: boolean,
    principal: Principal,
  ): Promise<void> {
    const scope = await this.scope(this.db, event, subevent);
    const byIds = body.ids !== undefined && body.ids !== null;
    const byGuids = body.seat_guids !== undefined && body.seat_guids !== null;
    if (byIds === byGuids) throw ValidationFailed.nonField('Please pass either seat_guids or ids.');
    const field = byIds ? 'ids' : 'seat_guids';
    const wanted: (number | string)[] = byIds ? body.ids! : body.seat_guids!;
    await this.db.transaction(async (em) => {
      const found = await this.queries.lockByKeys(em, scope, byIds, wanted);
      const known = new Set(found.map((f) => f.key));
      const missing = wanted.find((w) => !known.has(String(w)));
      if (missing !== undefined) throw ValidationFailed.field(field, `The seat '${missing}' does not exist.`);
      const ids = found.map((f) => f.id);
      await this.queries.setBlocked(em, ids, blocked);
      await this.log(em, event, principal, { seats: ids, blocked });
    });
  }

  /**
   * The scope of the URL: the event form (`subevent` null) or the sub-event form.
   * @throws NotFound for the wrong form or a date that is not the event's ({@link SEAT_FORM_MESSAGES})
   */
  private async scope(em: EntityManager, event: Event, subevent: number | null): Promise<SeatScope> {
    return subevent === null ? eventSeatScope(event) : subeventSeatScope(em, event, subevent);
  }

  private log(
    em: EntityManager,
    event: Event,
    principal: Principal,
    data: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(em, principal, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType: 'event',
      objectId: event.id,
      action: 'pretix.event.seats.blocks.changed',
      data,
    });
  }
}

/** The seat `id` of a scope, as a find condition. */
function seatWhere(scope: SeatScope, id: number): FindOptionsWhere<Seat> {
  return { id, eventId: scope.eventId, subeventId: scope.subeventId ?? IsNull() };
}

/**
 * The scope of the sub-event form before the date is checked: an event without dates still answers 404 here; a
 * date of another event finds no seat (every seat query is scoped by the event too).
 */
function subeventScopeUnchecked(event: Event, subevent: number): SeatScope {
  if (!event.hasSubevents) throw new NotFound(SEAT_FORM_MESSAGES.noSubevents);
  return { eventId: event.id, subeventId: subevent };
}
