import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { NoStore } from '../../common/http/no-store';
import { Event } from '../../organizers/event.entity';
import { OrderPositionJson } from '../presentation/order.presenter';
import { PrintLogJson } from '../presentation/order-parts.presenter';
import { PrintLogDto } from './print-log.dto';
import { BlockNameDto } from './block-name.dto';
import { PositionBlocking } from './position-blocking.service';

/**
 * `POST E/orderpositions/{id}/add_block/`, `…/remove_block/` and `…/printlog/` (pretix "Order position endpoints"),
 * permission `event.orders:write`. The block actions answer 200 with the position (400 `{"name": [...]}` for a bad
 * body), `printlog` 201 with the print log (400 naming the field); 404 for a position that is unknown, canceled or
 * of another event.
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/orderpositions/:id')
export class PositionBlockingController {
  constructor(private readonly blocking: PositionBlocking) {}

  /** Blocks the ticket under `name` (`admin` or `api:<name>`): `blocked` lists it; check-in refuses the ticket. */
  @Post('add_block')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderPositionJson })
  addOrderPositionBlock(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: BlockNameDto,
  ): Promise<OrderPositionJson> {
    return this.blocking.addBlock(event, principal, id, body.name);
  }

  /** Removes the block `name`; `blocked` becomes null when no block is left. */
  @Post('remove_block')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderPositionJson })
  removeOrderPositionBlock(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: BlockNameDto,
  ): Promise<OrderPositionJson> {
    return this.blocking.removeBlock(event, principal, id, body.name);
  }

  /** Records a print of the ticket (201 with the print log); it shows in the position's `print_logs`. */
  @Post('printlog')
  @HttpCode(201)
  @RequirePermission('event.orders:write')
  @ApiCreatedResponse({ type: PrintLogJson })
  createOrderPositionPrintLog(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: PrintLogDto,
  ): Promise<PrintLogJson> {
    return this.blocking.printLog(event, principal, id, body);
  }
}
