import { Body, Controller, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { NestedOrderPositionJson } from '../orders/nested-order-position.presenter';
import { Organizer } from '../organizers/organizer.entity';
import { GiftCardReads } from './giftcard-reads.service';
import { CreateGiftCardDto, GiftCardTransactDto, UpdateGiftCardDto } from './giftcard.dto';
import { GiftCardJson, GiftCardTransactionJson } from './giftcard.presenter';
import { GiftCardsService } from './giftcards.service';

const INCLUDE_ACCEPTED = ApiQuery({
  name: 'include_accepted',
  required: false,
  type: Boolean,
  description: 'Also cards of other organizers whose gift cards this organizer accepts.',
});

/**
 * `O/giftcards/` (spec "Gift cards"; compat §3.4). Read: `organizer.giftcards:read`; write:
 * `organizer.giftcards:write` (docs/permissions.md). No DELETE (405: a gift card survives).
 */
@ApiTags('gift cards')
@ApiExtraModels(NestedOrderPositionJson)
@Controller('organizers/:organizer/giftcards')
export class GiftCardsController {
  constructor(
    private readonly reads: GiftCardReads,
    private readonly cards: GiftCardsService,
  ) {}

  /** Filters `secret`, `testmode`, `expired`, `value`, `include_accepted`; `expand=owner_ticket`. */
  @Get()
  @RequirePermission('organizer.giftcards:read')
  @ApiPaginatedResponse(GiftCardJson)
  @INCLUDE_ACCEPTED
  list(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<GiftCardJson>> {
    return this.reads.list(organizer, filters, page);
  }

  @Get(':id')
  @RequirePermission('organizer.giftcards:read')
  @INCLUDE_ACCEPTED
  get(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
  ): Promise<GiftCardJson> {
    return this.reads.get(organizer, id, filters);
  }

  @Post()
  @RequirePermission('organizer.giftcards:write')
  create(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateGiftCardDto,
  ): Promise<GiftCardJson> {
    return this.cards.create(organizer, principal, body);
  }

  @Put(':id')
  @RequirePermission('organizer.giftcards:write')
  replace(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateGiftCardDto,
    @Filters() filters: QueryFilters,
  ): Promise<GiftCardJson> {
    return this.cards.update(organizer, id, principal, body, 'replace', filters);
  }

  @Patch(':id')
  @RequirePermission('organizer.giftcards:write')
  update(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateGiftCardDto,
    @Filters() filters: QueryFilters,
  ): Promise<GiftCardJson> {
    return this.cards.update(organizer, id, principal, body, 'patch', filters);
  }

  /** 200 with the card and its new value; 409 `{"value": [...]}` when the value would become negative. */
  @Post(':id/transact')
  @HttpCode(200)
  @RequirePermission('organizer.giftcards:write')
  @INCLUDE_ACCEPTED
  @ApiOkResponse({ type: GiftCardJson })
  transact(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: GiftCardTransactDto,
    @Filters() filters: QueryFilters,
  ): Promise<GiftCardJson> {
    return this.cards.transact(organizer, id, principal, body, filters);
  }

  @Get(':id/transactions')
  @RequirePermission('organizer.giftcards:read')
  @ApiPaginatedResponse(GiftCardTransactionJson)
  @INCLUDE_ACCEPTED
  transactions(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<GiftCardTransactionJson>> {
    return this.reads.transactions(organizer, id, filters, page);
  }
}
