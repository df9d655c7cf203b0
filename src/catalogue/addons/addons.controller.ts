import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { CreateAddonDto, UpdateAddonDto } from './addon.dto';
import { AddonJson } from './addon.presenter';
import { AddonsService } from './addons.service';

/**
 * `E/items/{item}/addons/` (spec "Item add-ons"; compat §3.12). PATCH and PUT are served at the spec's singular
 * `E/items/{item}/addon/{id}/` and at the plural form pretix routes. Read: event access; write:
 * `event.items:write` (docs/permissions.md).
 */
@ApiTags('addons')
@Controller('organizers/:organizer/events/:event/items/:item')
export class AddonsController {
  constructor(private readonly addons: AddonsService) {}

  @Get('addons')
  @RequireEventAccess()
  @ApiPaginatedResponse(AddonJson)
  @ListFilters({ ordering: ['id', 'position'] })
  listAddons(
    @CurrentEvent() event: Event,
    @IdParam('item') itemId: number,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<AddonJson>> {
    return this.addons.list(event, itemId, filters, page);
  }

  @Get('addons/:id')
  @RequireEventAccess()
  retrieveAddon(
    @CurrentEvent() event: Event,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
  ): Promise<AddonJson> {
    return this.addons.get(event, itemId, id);
  }

  @Post('addons')
  @RequirePermission('event.items:write')
  createAddon(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @Body() body: CreateAddonDto,
  ): Promise<AddonJson> {
    return this.addons.create(event, principal, itemId, body);
  }

  @Put('addons/:id')
  @RequirePermission('event.items:write')
  updateAddon(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: CreateAddonDto,
  ): Promise<AddonJson> {
    return this.addons.update(event, principal, itemId, id, body, 'replace');
  }

  /** The spec's singular form of {@link replace}. */
  @Put('addon/:id')
  @RequirePermission('event.items:write')
  updateAddonByAlias(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: CreateAddonDto,
  ): Promise<AddonJson> {
    return this.addons.update(event, principal, itemId, id, body, 'replace');
  }

  @Patch('addons/:id')
  @RequirePermission('event.items:write')
  partialUpdateAddon(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: UpdateAddonDto,
  ): Promise<AddonJson> {
    return this.addons.update(event, principal, itemId, id, body, 'patch');
  }

  /** The spec's singular form of {@link update}. */
  @Patch('addon/:id')
  @RequirePermission('event.items:write')
  partialUpdateAddonByAlias(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: UpdateAddonDto,
  ): Promise<AddonJson> {
    return this.addons.update(event, principal, itemId, id, body, 'patch');
  }

  @Delete('addons/:id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyAddon(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
  ): Promise<void> {
    await this.addons.delete(event, principal, itemId, id);
  }
}
