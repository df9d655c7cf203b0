import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { filter, ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Organizer } from '../organizers/organizer.entity';
import { CreateGiftCardAcceptanceDto, UpdateGiftCardAcceptanceDto } from './giftcard-acceptance.dto';
import { GiftCardAcceptancesService } from './giftcard-acceptances.service';
import { GiftCardAcceptanceJson } from './giftcard.presenter';

/**
 * `O/giftcards/acceptance/`: the issuers whose gift cards this organizer accepts, by issuer slug (compat §3.4).
 * Read: `organizer.giftcards:read`; write: `organizer.giftcards:write`, and for POST and PATCH the same permission
 * on the issuer (checked by the service). Registered before the gift card routes, so `acceptance` is never
 * taken for a card id.
 */
@ApiTags('gift cards')
@Controller('organizers/:organizer/giftcards/acceptance')
export class GiftCardAcceptancesController {
  constructor(private readonly acceptances: GiftCardAcceptancesService) {}

  /** Filter `active`. */
  @Get()
  @RequirePermission('organizer.giftcards:read')
  @ApiPaginatedResponse(GiftCardAcceptanceJson)
  @ListFilters({
    filters: { active: filter.bool('Only active (`true`) or only inactive (`false`) acceptances.') },
    ordering: ['id'],
  })
  listAcceptances(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<GiftCardAcceptanceJson>> {
    return this.acceptances.list(organizer, filters, page);
  }

  @Get(':issuer')
  @RequirePermission('organizer.giftcards:read')
  retrieveAcceptance(
    @CurrentOrganizer() organizer: Organizer,
    @Param('issuer') issuer: string,
  ): Promise<GiftCardAcceptanceJson> {
    return this.acceptances.get(organizer, issuer);
  }

  @Post()
  @RequirePermission('organizer.giftcards:write')
  createAcceptance(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateGiftCardAcceptanceDto,
  ): Promise<GiftCardAcceptanceJson> {
    return this.acceptances.create(organizer, principal, body);
  }

  @Patch(':issuer')
  @RequirePermission('organizer.giftcards:write')
  partialUpdateAcceptance(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Param('issuer') issuer: string,
    @Body() body: UpdateGiftCardAcceptanceDto,
  ): Promise<GiftCardAcceptanceJson> {
    return this.acceptances.update(organizer, principal, issuer, body);
  }

  @Delete(':issuer')
  @HttpCode(204)
  @RequirePermission('organizer.giftcards:write')
  async destroyAcceptance(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Param('issuer') issuer: string,
  ): Promise<void> {
    await this.acceptances.delete(organizer, principal, issuer);
  }
}
