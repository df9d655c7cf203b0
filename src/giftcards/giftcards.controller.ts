import { Body, Controller, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { filter, ListFilters, QueryParamDoc } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { NestedOrderPositionJson } from '../orders/presentation/nested-order-position.presenter';
import { Organizer } from '../organizers/organizer.entity';
import { GIFTCARD_EXPANDS, GiftCardReads } from './giftcard-reads.service';
import { CreateGiftCardDto, GiftCardTransactDto, UpdateGiftCardDto } from './giftcard.dto';
import { GiftCardJson, GiftCardTransactionJson } from './giftcard.presenter';
import { GiftCardsService } from './giftcards.service';
import { NoStore } from '../common/http/no-store';

const INCLUDE_ACCEPTED: Record<string, QueryParamDoc> = {
  include_accepted: filter.bool('Also cards of other organizers whose gift cards this organizer accepts.'),
};

/** Changes refuse `include_accepted=true`: a card of another issuer is only read and transacted. */
const NOT_ACCEPTED: Record<string, QueryParamDoc> = {
  include_accepted: filter.bool('Must not be `true`: cards of other issuers cannot be changed (403).'),
};

/**
 * `O/giftcards/` (spec "Gift cards"; compat §3.4). Read: `organizer.giftcards:read`; write:
 * `organizer.giftcards:write` (docs/permissions.md). No DELETE (405: a gift card survives).
 */
@ApiTags('gift cards')
@ApiExtraModels(NestedOrderPositionJson)
@NoStore()
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
  @ListFilters({
    filters: {
      ...INCLUDE_ACCEPTED,
      secret: filter.text('Gift card secret (case-insensitive exact match).'),
      testmode: filter.bool('Only test-mode (`true`) or only live (`false`) cards.'),
      expired: filter.bool('Only expired (`true`) or only unexpired (`false`) cards.'),
      value: filter.decimal('Current value (exact), e.g. `10.00`.'),
    },
    ordering: ['id', 'issuance', 'secret', 'value', 'expires'],
    expand: GIFTCARD_EXPANDS,
  })
  listGiftCards(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<GiftCardJson>> {
    return this.reads.list(organizer, filters, page);
  }

  @Get(':id')
  @RequirePermission('organizer.giftcards:read')
  @ListFilters({ filters: INCLUDE_ACCEPTED, expand: GIFTCARD_EXPANDS })
  retrieveGiftCard(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
  ): Promise<GiftCardJson> {
    return this.reads.get(organizer, id, filters);
  }

  @Post()
  @RequirePermission('organizer.giftcards:write')
  createGiftCard(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateGiftCardDto,
  ): Promise<GiftCardJson> {
    return this.cards.create(organizer, principal, body);
  }

  @Put(':id')
  @RequirePermission('organizer.giftcards:write')
  @ListFilters({ filters: NOT_ACCEPTED })
  updateGiftCard(
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
  @ListFilters({ filters: NOT_ACCEPTED })
  partialUpdateGiftCard(
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
  @ApiOkResponse({ type: GiftCardJson })
  @ListFilters({ filters: INCLUDE_ACCEPTED })
  transactGiftCard(
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
  @ListFilters({ filters: INCLUDE_ACCEPTED, ordering: ['datetime', 'id'] })
  listTransactions(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<GiftCardTransactionJson>> {
    return this.reads.transactions(organizer, id, filters, page);
  }
}
