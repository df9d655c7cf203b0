import { Body, Controller, Get, HttpCode, Patch, Post, Put, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { filter, ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { isoUtc } from '../common/values/datetime';
import { GiftCardJson } from '../giftcards/giftcard.presenter';
import { CustomerJson } from '../customers/customer.presenter';
import { NestedOrderPositionJson } from '../orders/presentation/nested-order-position.presenter';
import { Organizer } from '../organizers/organizer.entity';
import {
  CreateReusableMediumDto,
  LookupReusableMediumDto,
  ReplaceReusableMediumDto,
  UpdateReusableMediumDto,
} from './reusable-medium.dto';
import { MEDIUM_EXPANDS } from './reusable-media-presentation';
import { MEDIUM_TYPES } from './reusable-medium.entity';
import { ReusableMediumJson, ReusableMediumLookupJson } from './reusable-medium.presenter';
import { MediumAnswerOptions, ReusableMediaService } from './reusable-media.service';
import { NoStore } from '../common/http/no-store';

/**
 * `O/reusablemedia/` (spec "Reusable media"; compat §3.3). Read: `organizer.reusablemedia:read`; write and
 * `lookup/`: `organizer.reusablemedia:write` (docs/permissions.md; spec "Authentication" 9). No DELETE (405).
 * `expand` (repeatable): `linked_giftcard`, `linked_giftcard.owner_ticket`, `linked_orderposition`, `customer`.
 */
@ApiTags('reusable media')
@ApiExtraModels(NestedOrderPositionJson, GiftCardJson, ReusableMediumJson, CustomerJson)
// Media identifiers and expanded gift cards (`secret`) and positions are secrets (README "Security", "Secrets in
// answers").
@NoStore()
@Controller('organizers/:organizer/reusablemedia')
export class ReusableMediaController {
  constructor(private readonly media: ReusableMediaService) {}

  /** The list, with header `X-Page-Generated` (server time when the request started; use as `updated_since`). */
  @Get()
  @RequirePermission('organizer.reusablemedia:read')
  @ApiPaginatedResponse(ReusableMediumJson)
  @ListFilters({
    filters: {
      identifier: filter.text('Identifier of the medium (exact match).'),
      type: filter.choice(MEDIUM_TYPES, 'Type of the medium.'),
      customer: filter.text('Identifier of the customer the medium belongs to.'),
      active: filter.bool('Only active (`true`) or only inactive (`false`) media.'),
      created_since: filter.datetime('Media created at or after this time.'),
      updated_since: filter.datetime('Media updated at or after this time (pass back `X-Page-Generated`).'),
      linked_orderposition: filter.int('Id of the linked order position.'),
      linked_giftcard: filter.int('Id of the linked gift card.'),
    },
    ordering: ['created', 'updated', 'identifier', 'type', 'id'],
    expand: MEDIUM_EXPANDS,
  })
  listReusableMedia(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Paginated<ReusableMediumJson>> {
    res.setHeader('X-Page-Generated', isoUtc(new Date()));
    return this.media.list(organizer, filters, page);
  }

  /** 200 `{"result": <medium>}` or `{"result": null}` when nothing matches. */
  @Post('lookup')
  @HttpCode(200)
  @RequirePermission('organizer.reusablemedia:write')
  @ApiOkResponse({ type: ReusableMediumLookupJson })
  @ListFilters({ expand: MEDIUM_EXPANDS })
  lookupReusableMedia(
    @CurrentOrganizer() organizer: Organizer,
    @Body() body: LookupReusableMediumDto,
    @Filters() filters: QueryFilters,
  ): Promise<ReusableMediumLookupJson> {
    return this.media.lookup(organizer, body, answerOptions(filters));
  }

  @Get(':id')
  @RequirePermission('organizer.reusablemedia:read')
  @ListFilters({ expand: MEDIUM_EXPANDS })
  retrieveReusableMedium(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
  ): Promise<ReusableMediumJson> {
    return this.media.get(organizer, id, answerOptions(filters));
  }

  @Post()
  @RequirePermission('organizer.reusablemedia:write')
  @ListFilters({ expand: MEDIUM_EXPANDS })
  createReusableMedium(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateReusableMediumDto,
    @Filters() filters: QueryFilters,
  ): Promise<ReusableMediumJson> {
    return this.media.create(organizer, principal, body, answerOptions(filters));
  }

  @Put(':id')
  @RequirePermission('organizer.reusablemedia:write')
  @ListFilters({ expand: MEDIUM_EXPANDS })
  updateReusableMedium(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: ReplaceReusableMediumDto,
    @Filters() filters: QueryFilters,
  ): Promise<ReusableMediumJson> {
    return this.media.update(organizer, id, principal, body, 'replace', answerOptions(filters));
  }

  @Patch(':id')
  @RequirePermission('organizer.reusablemedia:write')
  @ListFilters({ expand: MEDIUM_EXPANDS })
  partialUpdateReusableMedium(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateReusableMediumDto,
    @Filters() filters: QueryFilters,
  ): Promise<ReusableMediumJson> {
    return this.media.update(organizer, id, principal, body, 'patch', answerOptions(filters));
  }
}

/** The `?expand=` of a single-medium answer, read from the query (names outside {@link MEDIUM_EXPANDS} ignored). */
function answerOptions(filters: QueryFilters): MediumAnswerOptions {
  return { expand: filters.expand(MEDIUM_EXPANDS) };
}
