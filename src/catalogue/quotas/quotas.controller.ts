import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ConditionalList } from '../../audit/conditional-list';
import { RequireEventAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { filter, ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { CreateQuotaDto, UpdateQuotaDto } from './quota.dto';
import { QuotaAvailabilityJson, QuotaJson } from './quota.presenter';
import { QuotasService } from './quotas.service';

/**
 * `E/quotas/` (spec "Quotas"; compat §3.14). Read: event access; write: `event.items:write`
 * (docs/permissions.md). DELETE is served at the spec's singular `E/quota/{id}/` and at the plural form.
 */
@ApiTags('quotas')
@Controller('organizers/:organizer/events/:event')
export class QuotasController {
  constructor(private readonly quotas: QuotasService) {}

  @Get('quotas')
  @ConditionalList('quota')
  @RequireEventAccess()
  @ApiPaginatedResponse(QuotaJson)
  @ListFilters({
    filters: {
      with_availability: filter.bool(
        '`true` adds `available` and `available_number` to each quota (slower).',
      ),
      subevent: filter.int('Id of the event date of the quota.'),
      subevent__in: filter.ints('Comma-separated ids of event dates, e.g. `1,2`.'),
      items__in: filter.ints('Comma-separated product ids; quotas containing any of them.'),
    },
    ordering: ['id', 'position', 'size'],
  })
  listQuotas(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<QuotaJson>> {
    return this.quotas.list(event, filters, page);
  }

  @Get('quotas/:id')
  @RequireEventAccess()
  @ListFilters({
    filters: {
      with_availability: filter.bool(
        '`true` adds `available` and `available_number` to each quota (slower).',
      ),
    },
  })
  retrieveQuota(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
  ): Promise<QuotaJson> {
    return this.quotas.get(event, id, filters);
  }

  @Get('quotas/:id/availability')
  @RequireEventAccess()
  getQuotaAvailability(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
  ): Promise<QuotaAvailabilityJson> {
    return this.quotas.availability(event, id);
  }

  @Post('quotas')
  @RequirePermission('event.items:write')
  createQuota(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateQuotaDto,
  ): Promise<QuotaJson> {
    return this.quotas.create(event, principal, body);
  }

  @Put('quotas/:id')
  @RequirePermission('event.items:write')
  updateQuota(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateQuotaDto,
  ): Promise<QuotaJson> {
    return this.quotas.update(event, id, principal, body, 'replace');
  }

  @Patch('quotas/:id')
  @RequirePermission('event.items:write')
  partialUpdateQuota(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateQuotaDto,
  ): Promise<QuotaJson> {
    return this.quotas.update(event, id, principal, body, 'patch');
  }

  /** `DELETE E/quota/{id}/`: the singular form the spec lists. */
  @Delete('quota/:id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyQuotaByAlias(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.quotas.delete(event, id, principal);
  }

  /** `DELETE E/quotas/{id}/`: the plural form pretix's router serves. */
  @Delete('quotas/:id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyQuota(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.quotas.delete(event, id, principal);
  }
}
