import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CatalogueListCache } from '../rendered-lists';
import { ConditionalList } from '../../audit/conditional-list';
import { RequireEventAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { CreateTaxRuleDto, UpdateTaxRuleDto } from './tax-rule.dto';
import { TaxRuleJson } from './tax-rule.presenter';
import { TaxRulesService } from './tax-rules.service';

/**
 * `E/taxrules/` (spec "Tax rules"; compat §3.19). Read: event access; write: `event.settings.tax:write`
 * (docs/permissions.md).
 */
@ApiTags('tax rules')
@Controller('organizers/:organizer/events/:event/taxrules')
export class TaxRulesController {
  constructor(private readonly taxRules: TaxRulesService) {}

  @Get()
  @CatalogueListCache()
  @ConditionalList('taxrule')
  @RequireEventAccess()
  @ApiPaginatedResponse(TaxRuleJson)
  @ListFilters({ ordering: ['id'] })
  listTaxRules(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<TaxRuleJson>> {
    return this.taxRules.list(event, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveTaxRule(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<TaxRuleJson> {
    return this.taxRules.get(event, id);
  }

  @Post()
  @RequirePermission('event.settings.tax:write')
  createTaxRule(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTaxRuleDto,
  ): Promise<TaxRuleJson> {
    return this.taxRules.create(event, principal, body);
  }

  @Put(':id')
  @RequirePermission('event.settings.tax:write')
  updateTaxRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTaxRuleDto,
  ): Promise<TaxRuleJson> {
    return this.taxRules.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.settings.tax:write')
  partialUpdateTaxRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateTaxRuleDto,
  ): Promise<TaxRuleJson> {
    return this.taxRules.update(event, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.settings.tax:write')
  async destroyTaxRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.taxRules.delete(event, id, principal);
  }
}
