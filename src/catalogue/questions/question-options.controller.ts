import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { filter, ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { CreateQuestionOptionDto, UpdateQuestionOptionDto } from './question-option.dto';
import { QuestionOptionJson } from './question-option.presenter';
import { QuestionOptionsService } from './question-options.service';

/**
 * `E/questions/{question}/options/` (compat §3.16). Read: event access; write: `event.items:write`
 * (docs/permissions.md). A question of another event is 404.
 */
@ApiTags('questions')
@Controller('organizers/:organizer/events/:event/questions/:question/options')
export class QuestionOptionsController {
  constructor(private readonly options: QuestionOptionsService) {}

  @Get()
  @RequireEventAccess()
  @ApiPaginatedResponse(QuestionOptionJson)
  @ListFilters({
    filters: {
      active: filter.bool('Accepted for compatibility; options have no active state, so it has no effect.'),
    },
    ordering: ['id', 'position'],
  })
  listOptions(
    @CurrentEvent() event: Event,
    @IdParam('question') question: number,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<QuestionOptionJson>> {
    return this.options.list(event, question, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveOption(
    @CurrentEvent() event: Event,
    @IdParam('question') question: number,
    @IdParam('id') id: number,
  ): Promise<QuestionOptionJson> {
    return this.options.get(event, question, id);
  }

  @Post()
  @RequirePermission('event.items:write')
  createOption(
    @CurrentEvent() event: Event,
    @IdParam('question') question: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateQuestionOptionDto,
  ): Promise<QuestionOptionJson> {
    return this.options.create(event, question, principal, body);
  }

  @Put(':id')
  @RequirePermission('event.items:write')
  updateOption(
    @CurrentEvent() event: Event,
    @IdParam('question') question: number,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateQuestionOptionDto,
  ): Promise<QuestionOptionJson> {
    return this.options.update(event, question, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.items:write')
  partialUpdateOption(
    @CurrentEvent() event: Event,
    @IdParam('question') question: number,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateQuestionOptionDto,
  ): Promise<QuestionOptionJson> {
    return this.options.update(event, question, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyOption(
    @CurrentEvent() event: Event,
    @IdParam('question') question: number,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.options.delete(event, question, id, principal);
  }
}
