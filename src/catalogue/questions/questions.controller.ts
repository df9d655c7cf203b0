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
import { CreateQuestionDto, ReplaceQuestionDto, UpdateQuestionDto } from './question.dto';
import { QuestionJson } from './question.presenter';
import { QuestionsService } from './questions.service';

/** `E/questions/` (compat §3.15). Read: event access; write: `event.items:write` (docs/permissions.md). */
@ApiTags('questions')
@Controller('organizers/:organizer/events/:event/questions')
export class QuestionsController {
  constructor(private readonly questions: QuestionsService) {}

  @Get()
  @ConditionalList('question')
  @RequireEventAccess()
  @ApiPaginatedResponse(QuestionJson)
  @ListFilters({
    filters: {
      identifier: filter.text('Question identifier (exact match).'),
      ask_during_checkin: filter.bool('Only questions asked (`true`) or not asked (`false`) at check-in.'),
      required: filter.bool('Only required (`true`) or only optional (`false`) questions.'),
    },
    ordering: ['id', 'position'],
  })
  listQuestions(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<QuestionJson>> {
    return this.questions.list(event, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveQuestion(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<QuestionJson> {
    return this.questions.get(event, id);
  }

  @Post()
  @RequirePermission('event.items:write')
  createQuestion(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateQuestionDto,
  ): Promise<QuestionJson> {
    return this.questions.create(event, principal, body);
  }

  @Put(':id')
  @RequirePermission('event.items:write')
  updateQuestion(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: ReplaceQuestionDto,
  ): Promise<QuestionJson> {
    return this.questions.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.items:write')
  partialUpdateQuestion(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateQuestionDto,
  ): Promise<QuestionJson> {
    return this.questions.update(event, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyQuestion(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.questions.delete(event, id, principal);
  }
}
