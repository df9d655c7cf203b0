import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { Event } from '../../organizers/event.entity';
import type { Organizer } from '../../organizers/organizer.entity';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { EventSlugSql, OrderTransactionQueries, TransactionScope } from './order-transaction.queries';
import {
  OrganizerTransactionJson,
  toOrganizerTransactionJson,
  toTransactionJson,
  TransactionJson,
} from './order-transaction.presenter';

/**
 * The transaction lists as clients read them (pretix 2025.7 `E/transactions/`, `O/transactions/`): one SQL
 * statement per page or detail (rows, count, order code and event slug), whatever the page size.
 */
@Injectable()
export class OrderTransactionReads {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tenancy: TenancyQueries,
    private readonly queries: OrderTransactionQueries,
  ) {}

  /** The organizers context's subquery of an event's slug. */
  private readonly eventSlugOf: EventSlugSql = (eventId) => this.tenancy.eventSlugOf(eventId);

  /**
   * A page of the event's transactions (filters and ordering: {@link OrderTransactionQueries.page}).
   * @throws ValidationFailed (400) for a malformed filter value
   */
  list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<TransactionJson>> {
    return this.queries.page(
      this.db.manager,
      { eventId: event.id },
      filters,
      page,
      this.eventSlugOf,
      toTransactionJson,
    );
  }

  /**
   * One of the event's transactions.
   * @throws NotFound for an id that is not one of the event's transactions
   */
  get(event: Event, id: number): Promise<TransactionJson> {
    return this.queries.one(this.db.manager, { eventId: event.id }, id, this.eventSlugOf, toTransactionJson);
  }

  /**
   * A page of the organizer's transactions, over the events where the credential holds `event.orders:read`
   * (docs/permissions.md, as `O/orders/`); same filters as the event's list, `event` (slug) included.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  listForOrganizer(
    organizer: Organizer,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<OrganizerTransactionJson>> {
    return this.queries.page(
      this.db.manager,
      this.organizerScope(organizer, principal),
      filters,
      page,
      this.eventSlugOf,
      toOrganizerTransactionJson,
    );
  }

  /**
   * One of the organizer's transactions (of an event the credential may read the orders of).
   * @throws NotFound otherwise
   */
  getForOrganizer(organizer: Organizer, principal: Principal, id: number): Promise<OrganizerTransactionJson> {
    return this.queries.one(
      this.db.manager,
      this.organizerScope(organizer, principal),
      id,
      this.eventSlugOf,
      toOrganizerTransactionJson,
    );
  }

  private organizerScope(organizer: Organizer, principal: Principal): TransactionScope {
    return {
      organizerId: organizer.id,
      eventIds: principal.eventsWithPermission(organizer.id, 'event.orders:read'),
    };
  }
}
