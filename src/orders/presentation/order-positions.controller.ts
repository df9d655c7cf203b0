import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { CurrentEvent } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { OrderPositionJson } from './order.presenter';
import { OrderPositionsService } from './order-positions.service';
import {
  EVENT_POSITION_LIST_FILTERS,
  POSITION_DETAIL_FILTERS,
  POSITION_CANCELED_FILTERS,
} from './order-filters';
import { NoStore } from '../../common/http/no-store';

/**
 * `E/orderpositions/` (compat §4.4): list and detail, permission `event.orders:read` (PATCH and
 * `regenerate_secrets`: `position-edits/`).
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/orderpositions')
export class OrderPositionsController {
  constructor(private readonly positions: OrderPositionsService) {}

  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(OrderPositionJson)
  @ListFilters(EVENT_POSITION_LIST_FILTERS)
  listOrderPositions(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<OrderPositionJson>> {
    return this.positions.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission('event.orders:read')
  @ListFilters(POSITION_DETAIL_FILTERS)
  retrieveOrderPosition(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
  ): Promise<OrderPositionJson> {
    return this.positions.get(event, id, filters);
  }

  /**
   * The image of a ticket layout's image variable `key` for the position (pretix `pdf_image`): the keys are
   * `question_<identifier>` of the event's file questions, the image the position's file answer holds. 404
   * `{"detail": "No image available"}` for a known key without an image answer and `{"detail": "Unknown key"}` for
   * another key.
   */
  @NoStore()
  @Get(':id/pdf_image/:key')
  @RequirePermission('event.orders:read')
  @ListFilters({ filters: POSITION_CANCELED_FILTERS })
  @ApiOkResponse({
    description: 'The image (inline), with the content type it was uploaded with.',
    content: {
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'image/jpeg': { schema: { type: 'string', format: 'binary' } },
      'image/gif': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiNotFoundResponse({ description: 'Unknown position, `Unknown key`, or `No image available`.' })
  async retrievePdfImage(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @Param('key') key: string,
    @Filters() filters: QueryFilters,
  ): Promise<StreamableFile> {
    const image = await this.positions.pdfImage(event, id, key, filters);
    return new StreamableFile(image.content, { type: image.contentType, length: image.content.length });
  }
}
