import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { ValidationFailed, invalidPk } from '../common/errors';
import { applyOrdering } from '../common/listing/ordering';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { findOrNotFound } from '../common/persistence/find';
import { CheckinPositions } from '../orders/checkin-seam/checkin-positions';
import type { Event } from '../organizers/event.entity';
import { Checkin } from './checkin.entity';
import { CheckinRecordJson, toCheckinRecordJson } from './checkin.presenter';
import { CheckinListsService } from './checkin-lists.service';
import type { FailedCheckinDto } from './redeem.dto';

/**
 * The history of scans of an event (`E/checkins/`, compat §3.22) and failed scans uploaded by scanners
 * (`failed_checkins/`, compat §3.20).
 */
@Injectable()
export class CheckinsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly lists: CheckinListsService,
    private readonly positions: CheckinPositions,
  ) {}

  /**
   * One page of the event's scans, successful or not. Filters `successful`, `auto_checked_in`, `type`, `list`,
   * `created_since`, `created_before`, `datetime_since`, `datetime_before`; ordering `id`, `created`, `datetime`
   * (default `-created`, newest first). One statement.
   * @throws ValidationFailed for a malformed filter value
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<CheckinRecordJson>> {
    const qb = this.db
      .getRepository(Checkin)
      .createQueryBuilder('c')
      .where('c.event_id = :event', { event: event.id });
    for (const [param, column] of [
      ['successful', 'successful'],
      ['auto_checked_in', 'auto_checked_in'],
    ] as const) {
      const value = filters.bool(param);
      if (value !== undefined) qb.andWhere(`c.${column} = :${param}`, { [param]: value });
    }
    const type = filters.str('type');
    if (type !== undefined) qb.andWhere('c.type = :type', { type });
    const list = filters.int('list');
    if (list !== undefined) qb.andWhere('c.list_id = :list', { list });
    for (const [param, op, column] of [
      ['created_since', '>=', 'created'],
      ['created_before', '<', 'created'],
      ['datetime_since', '>=', 'datetime'],
      ['datetime_before', '<', 'datetime'],
    ] as const) {
      const at = filters.datetime(param);
      if (at !== undefined) qb.andWhere(`c.${column} ${op} :${param}`, { [param]: at });
    }
    applyOrdering(qb, filters, { id: 'c.id', created: 'c.created', datetime: 'c.datetime' }, [
      '-created',
      '-id',
    ]);
    return paginateRows(qb, page, (rows) => rows.map(toCheckinRecordJson));
  }

  /** @throws NotFound for an id that is not a scan of this event */
  async get(event: Event, id: number): Promise<CheckinRecordJson> {
    return toCheckinRecordJson(await findOrNotFound(this.db, Checkin, { id, eventId: event.id }, false));
  }

  /**
   * Stores a scan the scanner refused offline (compat §3.20): 201 with the stored record; a nonce already stored
   * among the list's failed scans of the same ticket (or of no ticket) stores nothing and answers that record again.
   * @throws NotFound for an unknown list
   * @throws ValidationFailed for a `position` not of this event
   */
  async failed(event: Event, listId: number, body: FailedCheckinDto): Promise<CheckinRecordJson> {
    return this.db.transaction(async (em) => {
      const { list } = await this.lists.scope(em, event, listId);
      if (body.position != null && !(await this.positions.inEvent(em, event.id, body.position))) {
        throw ValidationFailed.field('position', invalidPk(body.position));
      }
      const rows: { id: number }[] = await em.query(
        `INSERT INTO checkin (position_id, event_id, list_id, type, datetime, successful, error_reason,
                              raw_barcode, raw_source_type, raw_item_id, raw_variation_id, raw_subevent_id, nonce)
         VALUES ($1, $2, $3, $4, $5, false, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (position_id, list_id, nonce) WHERE NOT successful AND nonce IS NOT NULL DO NOTHING
         RETURNING id`,
        [
          body.position ?? null,
          event.id,
          list.id,
          body.type ?? 'entry',
          body.datetime ? new Date(body.datetime) : new Date(),
          body.error_reason,
          body.raw_barcode,
          body.raw_source_type ?? 'barcode',
          body.raw_item ?? null,
          body.raw_variation ?? null,
          body.raw_subevent ?? null,
          body.nonce ?? null,
        ],
      );
      const again =
        rows.length > 0
          ? []
          : await em.query<{ id: number }[]>(
              `SELECT id FROM checkin WHERE list_id = $1 AND nonce = $2 AND NOT successful
                 AND position_id IS NOT DISTINCT FROM $3`,
              [list.id, body.nonce, body.position ?? null],
            );
      const id = rows[0]?.id ?? again[0].id;
      return toCheckinRecordJson(await findOrNotFound(em, Checkin, { id, eventId: event.id }, false));
    });
  }
}
