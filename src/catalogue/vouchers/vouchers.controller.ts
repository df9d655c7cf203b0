import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { filter, ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { CreateVoucherDto, PRICE_MODES, UpdateVoucherDto } from './voucher.dto';
import { VoucherListPipe } from './voucher-list.pipe';
import { VoucherJson } from './voucher.presenter';
import { VouchersService } from './vouchers.service';

/**
 * `E/vouchers/` (spec "### Vouchers"; compat §3.23). Read: `event.vouchers:read`; write: `event.vouchers:write`
 * (docs/permissions.md). Writes answer 409 when a lock cannot be had in time.
 */
@ApiTags('vouchers')
@Controller('organizers/:organizer/events/:event/vouchers')
export class VouchersController {
  constructor(private readonly vouchers: VouchersService) {}

  @Get()
  @RequirePermission('event.vouchers:read')
  @ApiPaginatedResponse(VoucherJson)
  @ListFilters({
    filters: {
      code: filter.text('Voucher code (case-insensitive exact match).'),
      max_usages: filter.int('Maximum number of redemptions.'),
      redeemed: filter.int('Number of redemptions so far.'),
      item: filter.int('Id of the product the voucher applies to.'),
      variation: filter.int('Id of the variation the voucher applies to.'),
      quota: filter.int('Id of the quota the voucher applies to.'),
      subevent: filter.int('Id of the event date the voucher applies to.'),
      block_quota: filter.bool('Whether the voucher blocks quota.'),
      allow_ignore_quota: filter.bool('Whether the voucher may ignore quotas.'),
      price_mode: filter.choice(PRICE_MODES, 'How the voucher changes the price.'),
      tag: filter.text('Voucher tag (exact match).'),
      value: filter.decimal('Voucher value (exact), e.g. `10.00`.'),
      active: filter.bool(
        'Only vouchers still redeemable (`true`) or only used-up or expired ones (`false`).',
      ),
      search: filter.text('Case-insensitive substring of the code, tag or comment.'),
    },
    ordering: ['id', 'code', 'max_usages', 'valid_until', 'value'],
  })
  listVouchers(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<VoucherJson>> {
    return this.vouchers.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission('event.vouchers:read')
  retrieveVoucher(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<VoucherJson> {
    return this.vouchers.get(event, id);
  }

  @Post()
  @RequirePermission('event.vouchers:write')
  createVoucher(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateVoucherDto,
  ): Promise<VoucherJson> {
    return this.vouchers.create(event, principal, body);
  }

  /** A JSON list of voucher objects, created all or none. */
  @Post('batch_create')
  @RequirePermission('event.vouchers:write')
  @ApiBody({ type: CreateVoucherDto, isArray: true })
  @ApiCreatedResponse({ type: VoucherJson, isArray: true })
  batchCreateVouchers(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body(VoucherListPipe) body: CreateVoucherDto[],
  ): Promise<VoucherJson[]> {
    return this.vouchers.batchCreate(event, principal, body);
  }

  @Put(':id')
  @RequirePermission('event.vouchers:write')
  updateVoucher(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateVoucherDto,
  ): Promise<VoucherJson> {
    return this.vouchers.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.vouchers:write')
  partialUpdateVoucher(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateVoucherDto,
  ): Promise<VoucherJson> {
    return this.vouchers.update(event, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.vouchers:write')
  async destroyVoucher(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.vouchers.delete(event, id, principal);
  }
}
