import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { NotFound, ValidationFailed } from '../../common/errors';
import { applyOrdering } from '../../common/listing/ordering';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { Event } from '../../organizers/event.entity';
import type { Organizer } from '../../organizers/organizer.entity';
import { OrderReads } from '../../orders/presentation/order-reads.service';
import { CHANGE_RESOURCE_NAMES, isChangeResourceName } from '../change-resources';
import { AuditLogQueries, LogFilters } from './audit-log.queries';
import { ACTOR_TYPES, AuditLogEntryJson, toAuditLogEntryJson } from './audit-log.presenter';
import { logScopes } from './log-resources';

/** Ordering fields of the log lists; the default is newest first (`-datetime`, ties `-id`). */
export const LOG_ORDERING = ['datetime', 'id'] as const;

/** An action type filter value: a name, or a name prefix ending in `.*` (webhooks' wildcard). */
const ACTION_TYPE = /^[a-z0-9_]+(\.[a-z0-9_]+)*(\.\*)?$/i;

/**
 * The audit log API (`GET O/logs/`, `E/logs/`, `E/orders/{code}/logs/`; README "Audit log"): the entries the
 * credential may read, newest first, one statement per page (plus one for the order of an order's log).
 */
@Injectable()
export class AuditLogsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly queries: AuditLogQueries,
    private readonly orders: OrderReads,
  ) {}

  /** The organizer's entries and those of the events the credential reaches (`O/logs/`). */
  organizerLogs(
    organizer: Organizer,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<AuditLogEntryJson>> {
    return this.list(organizer.id, principal, filters, page, {});
  }

  /** The entries of one event (`E/logs/`). */
  eventLogs(
    event: Event,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<AuditLogEntryJson>> {
    return this.list(event.organizerId, principal, filters, page, { eventId: event.id });
  }

  /**
   * The entries about one order (`E/orders/{code}/logs/`), check-ins on it included.
   * @throws NotFound when the event has no order with this code
   */
  async orderLogs(
    event: Event,
    code: string,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<AuditLogEntryJson>> {
    const order = await this.orders.byCode(this.db.manager, event.id, code, false);
    if (!order) throw new NotFound();
    return this.list(event.organizerId, principal, filters, page, {
      eventId: event.id,
      object: { contentType: 'order', objectId: order.id },
    });
  }

  private list(
    organizerId: number,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
    scope: Pick<LogFilters, 'eventId' | 'object'>,
  ): Promise<Paginated<AuditLogEntryJson>> {
    const f: LogFilters = { ...scope, ...readFilters(filters) };
    const qb = this.queries.scoped(
      this.audit.entriesOfOrganizer(organizerId),
      logScopes(principal, organizerId),
      f,
    );
    applyOrdering(qb, filters, { datetime: 'le.datetime', id: 'le.id' }, ['-datetime', '-id'], 'le.id');
    return this.queries.page(qb, page, toAuditLogEntryJson);
  }
}

/**
 * The filters of the log lists, validated: `action_type` (repeatable; `<prefix>.*` matches every action starting
 * with `<prefix>.`, as webhooks match), `actor_type`, `datetime_since`/`datetime_until` (inclusive), `resource`
 * (repeatable).
 * @throws ValidationFailed naming the parameter
 */
function readFilters(filters: QueryFilters): Omit<LogFilters, 'eventId' | 'object'> {
  const exact: string[] = [];
  const prefixes: string[] = [];
  for (const value of filters.all('action_type')) {
    if (value.length > 100 || !ACTION_TYPE.test(value)) {
      throw ValidationFailed.field(
        'action_type',
        'Enter an action type, optionally ending in ".*" (e.g. "pretix.event.order.*").',
      );
    }
    if (value.endsWith('.*')) prefixes.push(value.slice(0, -1));
    else exact.push(value);
  }
  const actorType = filters.raw('actor_type');
  if (actorType !== undefined && !(ACTOR_TYPES as readonly string[]).includes(actorType)) {
    throw ValidationFailed.field('actor_type', `Select one of: ${ACTOR_TYPES.join(', ')}.`);
  }
  const resources = filters.all('resource');
  const unknown = resources.find((r) => !isChangeResourceName(r));
  if (unknown !== undefined) {
    throw ValidationFailed.field(
      'resource',
      `"${unknown.slice(0, 50)}" is not a resource. Select among: ${CHANGE_RESOURCE_NAMES.join(', ')}.`,
    );
  }
  return {
    actionTypes: { exact, prefixes },
    actorType: actorType as LogFilters['actorType'],
    since: filters.datetime('datetime_since'),
    until: filters.datetime('datetime_until'),
    resources,
  };
}
