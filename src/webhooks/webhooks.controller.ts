import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { filter, ListFilters } from '../common/http/list-filters';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Organizer } from '../organizers/organizer.entity';
import { DELIVERY_STATUSES, WebhookDeliveriesService } from './webhook-deliveries.service';
import { CreateWebhookDto, UpdateWebhookDto } from './webhook.dto';
import { WebhookDeliveryJson, WebhookJson } from './webhook.presenter';
import { WebhooksService } from './webhooks.service';
import { NoStore } from '../common/http/no-store';

/**
 * `O/webhooks/` (compat §3.27) with the delivery log and redelivery (compat §5; README "Webhooks"). Reads and
 * writes need `organizer.settings.general:write` (docs/permissions.md).
 */
@ApiTags('webhooks')
@Controller('organizers/:organizer/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Get()
  @RequirePermission('organizer.settings.general:write')
  @ApiPaginatedResponse(WebhookJson)
  @ListFilters({})
  getOrganizerWebhooks(
    @CurrentOrganizer() organizer: Organizer,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<WebhookJson>> {
    return this.webhooks.list(organizer, page);
  }

  @Get(':id')
  @RequirePermission('organizer.settings.general:write')
  retrieveWebhook(@CurrentOrganizer() organizer: Organizer, @IdParam('id') id: number): Promise<WebhookJson> {
    return this.webhooks.get(organizer, id);
  }

  /** Answers the new webhook with its `secret` in full (the only time besides `rotate_secret`). */
  @NoStore()
  @Post()
  @RequirePermission('organizer.settings.general:write')
  webhooksOrganizer(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateWebhookDto,
  ): Promise<WebhookJson> {
    return this.webhooks.create(organizer, principal, body);
  }

  @Put(':id')
  @RequirePermission('organizer.settings.general:write')
  updateWebhook(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateWebhookDto,
  ): Promise<WebhookJson> {
    return this.webhooks.update(organizer, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('organizer.settings.general:write')
  partialUpdateWebhook(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookJson> {
    return this.webhooks.update(organizer, id, principal, body, 'patch');
  }

  /** Does not delete: sets `enabled=false` (compat §3.27); the webhook stays listed. */
  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('organizer.settings.general:write')
  async destroyWebhook(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.webhooks.disable(organizer, id, principal);
  }

  /** A new signing secret, answered in full; the old one stops at once. */
  @NoStore()
  @Post(':id/rotate_secret')
  @HttpCode(200)
  @RequirePermission('organizer.settings.general:write')
  rotateWebhookSecret(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookJson> {
    return this.webhooks.rotateSecret(organizer, id, principal);
  }

  @Get(':webhook/deliveries')
  @RequirePermission('organizer.settings.general:write')
  @ApiPaginatedResponse(WebhookDeliveryJson)
  @ApiQuery({ name: 'status', required: false, enum: DELIVERY_STATUSES })
  @ApiQuery({ name: 'action', required: false, description: 'Log action, e.g. pretix.event.order.paid' })
  @ApiQuery({ name: 'created_since', required: false, description: 'ISO 8601 datetime' })
  @ListFilters({
    filters: {
      status: filter.choice([...DELIVERY_STATUSES], 'Deliveries in this status.'),
      action: filter.text('Deliveries of this log action (exact).'),
      created_since: filter.datetime('Deliveries created at or after this time.'),
    },
  })
  getWebhookDeliveries(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('webhook') webhook: number,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<WebhookDeliveryJson>> {
    return this.deliveries.list(organizer, webhook, filters, page);
  }

  /** Sends the delivery again: same payload and `webhook-id`, fresh timestamp and signature. */
  @Post(':webhook/deliveries/:delivery/redeliver')
  @HttpCode(202)
  @RequirePermission('organizer.settings.general:write')
  @ApiParam({
    name: 'delivery',
    description: 'The delivery id (the `id` of the delivery list)',
    schema: { type: 'string', format: 'uuid' },
  })
  @ApiResponse({ status: 202, type: WebhookDeliveryJson })
  redeliverDelivery(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('webhook') webhook: number,
    @Param('delivery') delivery: string,
  ): Promise<WebhookDeliveryJson> {
    return this.deliveries.redeliver(organizer, webhook, delivery);
  }
}
