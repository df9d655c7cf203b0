import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../auth/access.decorators';
import { CurrentEvent } from '../auth/request-context';
import { Event } from '../organizers/event.entity';
import { EventSettingsDto } from './invoice-settings.dto';
import type { EventSettings } from './invoice-settings.rules';
import { InvoiceSettingsService } from './invoice-settings.service';

/**
 * `E/settings/` (README "Invoices"): the invoice settings of the event (sender address, number prefix,
 * `invoice_generate`, printed texts) and its `locale`. Read: event access; write:
 * `event.settings.invoicing:write`. PATCH changes only the keys sent; unknown keys are ignored.
 */
@ApiTags('events')
@Controller('organizers/:organizer/events/:event/settings')
export class InvoiceSettingsController {
  constructor(private readonly settings: InvoiceSettingsService) {}

  @Get()
  @RequireEventAccess()
  @ApiOkResponse({ type: EventSettingsDto })
  getEventSettings(@CurrentEvent() event: Event): Promise<EventSettings> {
    return this.settings.get(event.id);
  }

  @Patch()
  @RequirePermission('event.settings.invoicing:write')
  @ApiOkResponse({ type: EventSettingsDto })
  settingsEventWithPatch(
    @CurrentEvent() event: Event,
    @Body() body: EventSettingsDto,
  ): Promise<EventSettings> {
    return this.settings.update(event, body);
  }
}
