import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ListFilters } from '../../common/http/list-filters';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { CreateAutoCheckinRuleDto, UpdateAutoCheckinRuleDto } from './auto-checkin-rule.dto';
import { AutoCheckinRuleJson } from './auto-checkin-rule.presenter';
import { AutoCheckinRulesService } from './auto-checkin-rules.service';

/** pretix's permission of the rules, for reading too (`RuleViewSet.permission`). */
const PERMISSION = 'event.settings.general:write' as const;

/**
 * `E/auto_checkin_rules/` (pretix 2025+ plugin `autocheckin`): automatic check-in rules. Every route, reads
 * included, needs `event.settings.general:write`, as pretix's view declares.
 */
@ApiTags('auto_checkin_rules')
@Controller('organizers/:organizer/events/:event/auto_checkin_rules')
export class AutoCheckinRulesController {
  constructor(private readonly rules: AutoCheckinRulesService) {}

  @Get()
  @RequirePermission(PERMISSION)
  @ApiPaginatedResponse(AutoCheckinRuleJson)
  @ListFilters({ filters: {}, ordering: ['id'] })
  listAutoCheckinRules(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<AutoCheckinRuleJson>> {
    return this.rules.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission(PERMISSION)
  retrieveAutoCheckinRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
  ): Promise<AutoCheckinRuleJson> {
    return this.rules.get(event, id);
  }

  @Post()
  @RequirePermission(PERMISSION)
  createAutoCheckinRule(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateAutoCheckinRuleDto,
  ): Promise<AutoCheckinRuleJson> {
    return this.rules.create(event, principal, body);
  }

  /** Replaces the rule: omitted fields go back to their defaults. */
  @Put(':id')
  @RequirePermission(PERMISSION)
  updateAutoCheckinRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateAutoCheckinRuleDto,
  ): Promise<AutoCheckinRuleJson> {
    return this.rules.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission(PERMISSION)
  partialUpdateAutoCheckinRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateAutoCheckinRuleDto,
  ): Promise<AutoCheckinRuleJson> {
    return this.rules.update(event, id, principal, body, 'patch');
  }

  /** Deletes the rule; the check-ins it made stay. */
  @Delete(':id')
  @HttpCode(204)
  @RequirePermission(PERMISSION)
  async destroyAutoCheckinRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.rules.delete(event, id, principal);
  }
}
