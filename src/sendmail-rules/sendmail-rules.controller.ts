import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { filter, ListFilters } from '../common/http/list-filters';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { CreateSendmailRuleDto, SEND_TO, UpdateSendmailRuleDto } from './sendmail-rule.dto';
import { SendmailRuleJson } from './sendmail-rule.presenter';
import { SendmailRulesService } from './sendmail-rules.service';

const PERMISSION = 'event.settings.general:write';

/**
 * `E/sendmail_rules/` (spec "Scheduled e-mail rules"; compat §3.26). Reads and writes need
 * `event.settings.general:write` (docs/permissions.md).
 */
@ApiTags('scheduled e-mail rules')
@Controller('organizers/:organizer/events/:event/sendmail_rules')
export class SendmailRulesController {
  constructor(private readonly rules: SendmailRulesService) {}

  @Get()
  @RequirePermission(PERMISSION)
  @ApiPaginatedResponse(SendmailRuleJson)
  @ListFilters({
    filters: {
      id: filter.int('Only the rule with this id.'),
      all_products: filter.bool('Rules for all products (`true`) or limited ones (`false`).'),
      date_is_absolute: filter.bool('Rules with an absolute date (`true`) or an offset (`false`).'),
      offset_to_event_end: filter.bool('Offset counted from the end of the event.'),
      offset_is_after: filter.bool('Offset after the event.'),
      send_to: filter.choice(SEND_TO, 'Recipients of the rule.'),
      enabled: filter.bool('Enabled (`true`) or disabled (`false`) rules.'),
    },
    ordering: ['id'],
  })
  sendmailEventRules(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<SendmailRuleJson>> {
    return this.rules.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission(PERMISSION)
  retrieveSendmailRule(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<SendmailRuleJson> {
    return this.rules.get(event, id);
  }

  @Post()
  @RequirePermission(PERMISSION)
  sendmailEventRules2(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSendmailRuleDto,
  ): Promise<SendmailRuleJson> {
    return this.rules.create(event, principal, body);
  }

  @Put(':id')
  @RequirePermission(PERMISSION)
  updateSendmailRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSendmailRuleDto,
  ): Promise<SendmailRuleJson> {
    return this.rules.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission(PERMISSION)
  partialUpdateSendmailRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateSendmailRuleDto,
  ): Promise<SendmailRuleJson> {
    return this.rules.update(event, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission(PERMISSION)
  async destroySendmailRule(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.rules.delete(event, id, principal);
  }
}
