import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { CurrentEvent } from '../../auth/request-context';
import { filter, ListFilters } from '../../common/http/list-filters';
import { NoStore } from '../../common/http/no-store';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { PositionBlocking } from './position-blocking.service';
import { BlockedSecretJson, RevokedSecretJson } from './secret-lists.presenter';

/**
 * The secret lists scanners download to refuse tickets offline (pretix `E/blockedsecrets/`, `E/revokedsecrets/`),
 * read-only, permission `event.orders:read`. Each page is one SQL statement.
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event')
export class TicketSecretsController {
  constructor(private readonly blocking: PositionBlocking) {}

  /** Every secret ever blocked, with `blocked` false once unblocked; newest change first. */
  @Get('blockedsecrets')
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(BlockedSecretJson)
  @ListFilters({
    filters: {
      updated_since: filter.datetime('Changed at or after this time.'),
      blocked: filter.bool('Only blocked (`true`) or only unblocked (`false`) secrets.'),
    },
    ordering: ['id', 'updated'],
  })
  listBlockedSecrets(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<BlockedSecretJson>> {
    return this.blocking.blockedSecrets(event, filters, page);
  }

  /** Ticket secrets replaced by `regenerate_secrets`; newest first. */
  @Get('revokedsecrets')
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(RevokedSecretJson)
  @ListFilters({
    filters: { created_since: filter.datetime('Revoked at or after this time.') },
    ordering: ['id', 'created'],
  })
  listRevokedSecrets(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<RevokedSecretJson>> {
    return this.blocking.revokedSecrets(event, filters, page);
  }
}
