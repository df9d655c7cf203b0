import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../auth/access.decorators';
import { CurrentEvent } from '../auth/request-context';
import { Event } from '../organizers/event.entity';
import { EventSettingsDto } from './invoice-settings.dto';
import { InvoiceSettingsService, ShownEventSettings } from './invoice-settings.service';

/**
 * `E/settings/` (README "Invoices"): the invoice settings of the event (sender address, number prefix,
 * `invoice_generate`, printed texts), its `locale`, and the waiting list settings (`waiting_list_enabled`,
 * `waiting_list_auto`, `waiting_list_hours`, `waiting_list_limit_per_user`, stored by the waiting list). Read: event access; write:
 * `event.settings.invoicing:write`. PATCH changes only the keys sent; unknown keys are ignored.
 */
@ApiTags('events')
@Controller('organizers/:organizer/events/:event/settings')
export class InvoiceSettingsController {
  constructor(private readonly settings: InvoiceSettingsService) {}

  @Get()
  @RequireEventAccess()
  @ApiOkResponse({ type: EventSettingsDto })
  getEventSettings(@CurrentEvent() event: Event): Promise<ShownEventSettings> {
    return this.settings.show(event.id);
  }

  @Patch()
  @RequirePermission('event.settings.invoicing:write')
  @ApiOkResponse({ type: EventSettingsDto })
  settingsEventWithPatch(
    @CurrentEvent() event: Event,
    @Body() body: EventSettingsDto,
  ): Promise<ShownEventSettings> {
    return this.settings.change(event, body);
  }
}
