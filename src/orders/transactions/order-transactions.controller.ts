import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireOrganizerAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ListFilters } from '../../common/http/list-filters';
import { NoStore } from '../../common/http/no-store';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { Organizer } from '../../organizers/organizer.entity';
import { OrderTransactionReads } from './order-transaction-reads.service';
import { OrganizerTransactionJson, TransactionJson } from './order-transaction.presenter';
import { TRANSACTION_LIST_FILTERS } from './transaction-filters';

/**
 * `E/transactions/` (pretix 2025.7): the event's order transaction log, read-only, permission
 * `event.orders:read`; default order `datetime`, then `id`.
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/transactions')
export class OrderTransactionsController {
  constructor(private readonly reads: OrderTransactionReads) {}

  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(TransactionJson)
  @ListFilters(TRANSACTION_LIST_FILTERS)
  listOrderTransactions(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<TransactionJson>> {
    return this.reads.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission('event.orders:read')
  retrieveOrderTransaction(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
  ): Promise<TransactionJson> {
    return this.reads.get(event, id);
  }
}

/**
 * `O/transactions/` (pretix 2025.7): the transactions of every event of the organizer where the credential holds
 * `event.orders:read` (docs/permissions.md, like `O/orders/`), each with its event's slug.
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/transactions')
export class OrganizerTransactionsController {
  constructor(private readonly reads: OrderTransactionReads) {}

  @Get()
  @RequireOrganizerAccess()
  @ApiPaginatedResponse(OrganizerTransactionJson)
  @ListFilters(TRANSACTION_LIST_FILTERS)
  listOrganizerOrderTransactions(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<OrganizerTransactionJson>> {
    return this.reads.listForOrganizer(organizer, principal, filters, page);
  }

  @Get(':id')
  @RequireOrganizerAccess()
  retrieveOrganizerOrderTransaction(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
  ): Promise<OrganizerTransactionJson> {
    return this.reads.getForOrganizer(organizer, principal, id);
  }
}
