import { Injectable, OnModuleInit } from '@nestjs/common';
import { copyRows } from '../common/persistence/copy-rows.queries';
import { EVENT_COPY_STAGE, EventHooks } from '../organizers/event-hooks';
import { InvoiceSettings } from './invoice-settings.entity';

/**
 * The invoices context's part of cloning an event (pretix copies the event's settings store): the invoice
 * settings row (`E/settings/`), columns from the entity metadata. Invoice numbers and invoices are not copied.
 */
@Injectable()
export class InvoiceEventCopy implements OnModuleInit {
  constructor(private readonly hooks: EventHooks) {}

  onModuleInit(): void {
    this.hooks.onEventCopy(EVENT_COPY_STAGE.settings, 'invoice settings', async ({ em, source, target }) => {
      await copyRows(em, {
        entity: InvoiceSettings,
        where: 's.event_id = $1',
        params: [source.id],
        columns: { event_id: { value: target.id } },
      });
    });
  }
}
