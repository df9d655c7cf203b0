import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Injectable,
  PipeTransform,
  Post,
  Res,
} from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { ValidationFailed } from '../../common/errors';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { isoUtc } from '../../common/values/datetime';
import { Event } from '../../organizers/event.entity';
import { CartPositionBulkJson, CreateCartPositionDto, CreatedCartPositionJson } from './cart-position.dto';
import { LIMITS, tooManyMessage } from '../../config/limits';
import { CartPositionsService } from './cart-positions.service';
import { CartPositionJson } from '../presentation/cart-position.presenter';

/**
 * Body pipe of `bulk_create`: the body must be a JSON list, else 400 `{"error": "Please supply a list"}`
 * (pretix's own shape for this endpoint, compat §3.2), of at most `LIMITS.cartPositionsPerBulk` entries, else 400
 * `{"non_field_errors": ["Ensure this field has no more than 1000 elements."]}` (DRF's list shape; README
 * "Limits"). Entries are validated one by one by the service.
 */
@Injectable()
export class CartPositionListPipe implements PipeTransform<unknown, unknown[]> {
  transform(value: unknown): unknown[] {
    if (!Array.isArray(value)) {
      throw new ValidationFailed({ error: 'Please supply a list' });
    }
    if (value.length > LIMITS.cartPositionsPerBulk) {
      throw ValidationFailed.nonField(tooManyMessage(LIMITS.cartPositionsPerBulk));
    }
    return value as unknown[];
  }
}

/**
 * `E/cartpositions/` (spec "### Cart positions"; compat §3.2). Read: `event.orders:read`; write:
 * `event.orders:write` (docs/permissions.md). No PUT or PATCH (405).
 */
@ApiTags('cart positions')
@Controller('organizers/:organizer/events/:event/cartpositions')
export class CartPositionsController {
  constructor(private readonly carts: CartPositionsService) {}

  /** `@api` carts only; `X-Page-Generated` carries the server time at the start of the request (ISO, UTC). */
  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(CartPositionJson)
  @ListFilters({ ordering: ['id', 'datetime', 'expires', 'cart_id'] })
  listCartPositions(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Paginated<CartPositionJson>> {
    res.setHeader('X-Page-Generated', isoUtc(new Date()));
    return this.carts.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission('event.orders:read')
  retrieveCartPosition(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<CartPositionJson> {
    return this.carts.get(event, id);
  }

  /** 201 with the position, its `addons` as created and empty `bundled`; 400 also when quota is lacking (bare list). */
  @Post()
  @RequirePermission('event.orders:write')
  createCartPosition(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateCartPositionDto,
  ): Promise<CreatedCartPositionJson> {
    return this.carts.create(event, principal, body);
  }

  /** A JSON list of positions; 200 with one result per entry, the valid ones created (partial success). */
  @Post('bulk_create')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiBody({ type: CreateCartPositionDto, isArray: true })
  @ApiOkResponse({ type: CartPositionBulkJson })
  bulkCreateCartPositions(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body(CartPositionListPipe) body: unknown[],
  ): Promise<CartPositionBulkJson> {
    return this.carts.bulkCreate(event, principal, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  async destroyCartPosition(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.carts.delete(event, id, principal);
  }
}
