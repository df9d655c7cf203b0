import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../auth/request-context';
import { Event } from '../organizers/event.entity';
import { InvoiceJson } from './invoice.presenter';
import { INVOICE_MESSAGES, InvoicesService } from './invoices.service';

/**
 * `POST E/orders/{code}/create_invoice/` (compat §4.4 "Actions"; pretix `create_invoice`), permission
 * `event.orders:write`: 201 with the new invoice; 400 `{"detail": "You cannot generate an invoice for this
 * order."}` (`invoice_generate` `False`; a free, canceled, expired or approval-pending order) or `{"detail": "An
 * invoice for this order already exists."}`; 404 for an unknown order code.
 */
@ApiTags('orders')
@Controller('organizers/:organizer/events/:event/orders/:code')
export class OrderInvoiceController {
  constructor(private readonly invoices: InvoicesService) {}

  @Post('create_invoice')
  @HttpCode(201)
  @RequirePermission('event.orders:write')
  @ApiCreatedResponse({ type: InvoiceJson })
  @ApiBadRequestResponse({
    description: `\`{"detail": "${INVOICE_MESSAGES.cannotGenerate}"}\` or \`{"detail": "${INVOICE_MESSAGES.exists}"}\``,
  })
  @ApiOperation({ summary: 'Create order invoice' })
  createOrderInvoice(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
  ): Promise<InvoiceJson> {
    return this.invoices.createForOrder(event, principal, code);
  }
}
