import { byRef, ObjectRef, refIds } from '../common/listing/object-refs';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../audit/change-renderer';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, In } from 'typeorm';
import { ValidationFailed, invalidPk } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { findOrNotFound } from '../common/persistence/find';
import { CheckinPositions } from '../orders/checkin-seam/checkin-positions';
import type { Event } from '../organizers/event.entity';
import { Checkin } from './checkin.entity';
import { CheckinRecordJson, toCheckinRecordJson } from './checkin.presenter';
import { CheckinListsService } from './checkin-lists.service';
import { CheckinQueries } from './checkin.queries';
import type { FailedCheckinDto } from './redeem.dto';
import type { Principal } from '../auth/principal';
import { scanDevice } from './scan-device';

/**
 * The history of scans of an event (`E/checkins/`, compat §3.22) and failed scans uploaded by scanners
 * (`failed_checkins/`, compat §3.20).
 */
@Injectable()
@RendersChanges('checkin')
export class CheckinsService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly lists: CheckinListsService,
    private readonly positions: CheckinPositions,
    private readonly queries: CheckinQueries,
  ) {}

  /**
   * One page of the event's scans, successful or not. Filters `successful`, `auto_checked_in`, `type`, `list`,
   * `created_since`, `created_before`, `datetime_since`, `datetime_before`; ordering `id`, `created`, `datetime`
   * (default `-created`, newest first). One statement.
   * @throws ValidationFailed for a malformed filter value
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<CheckinRecordJson>> {
    return this.queries.scansPage(this.db, event.id, filters, page, (rows) => rows.map(toCheckinRecordJson));
  }

  /** The change feed's checkin objects ({@link details}). */
  renderChanges(_scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.details(refs);
  }

  /** The detail answers of the check-ins `refs` names that still exist in their event, by id; one statement. */
  async details(refs: readonly ObjectRef[]): Promise<Map<number, CheckinRecordJson>> {
    if (refs.length === 0) return new Map();
    const rows = await this.db.find(Checkin, { where: { id: In(refIds(refs)) } });
    return byRef(
      refs,
      rows.map((r) => ({ id: r.id, eventId: r.eventId, json: toCheckinRecordJson(r) })),
    );
  }

  /** @throws NotFound for an id that is not a scan of this event */
  async get(event: Event, id: number): Promise<CheckinRecordJson> {
    return toCheckinRecordJson(await findOrNotFound(this.db, Checkin, { id, eventId: event.id }, false));
  }

  /**
   * Stores a scan the scanner refused offline (compat §3.20): 201 with the stored record; a nonce already stored
   * among the list's failed scans of the same ticket (or of no ticket) stores nothing and answers that record again.
   * A device's upload records the device and its gate (`device_id`, `gate`).
   * @throws NotFound for an unknown list
   * @throws ValidationFailed for a `position` not of this event
   */
  async failed(
    event: Event,
    principal: Principal,
    listId: number,
    body: FailedCheckinDto,
  ): Promise<CheckinRecordJson> {
    return this.db.transaction(async (em) => {
      const { list } = await this.lists.scope(em, event, listId);
      if (body.position != null && !(await this.positions.inEvent(em, event.id, body.position))) {
        throw ValidationFailed.field('position', invalidPk(body.position));
      }
      const rows = await this.queries.insertFailedScan(em, {
        positionId: body.position ?? null,
        eventId: event.id,
        listId: list.id,
        type: body.type ?? 'entry',
        datetime: body.datetime ? new Date(body.datetime) : new Date(),
        errorReason: body.error_reason,
        rawBarcode: body.raw_barcode,
        rawSourceType: body.raw_source_type ?? 'barcode',
        rawItemId: body.raw_item ?? null,
        rawVariationId: body.raw_variation ?? null,
        rawSubeventId: body.raw_subevent ?? null,
        nonce: body.nonce ?? null,
        ...scanDevice(principal),
      });
      const again =
        rows.length > 0
          ? []
          : await this.queries.failedScanByNonce(em, list.id, body.nonce, body.position ?? null);
      const id = rows[0]?.id ?? again[0].id;
      return toCheckinRecordJson(await findOrNotFound(em, Checkin, { id, eventId: event.id }, false));
    });
  }
}
