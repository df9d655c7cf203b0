import { Module } from '@nestjs/common';
import { InvoiceSettingsController } from './invoice-settings.controller';
import { InvoicesController, OrganizerInvoicesController } from './invoices.controller';
import { InvoicesCoreModule } from './invoices-core.module';
import { OrderInvoiceController } from './order-invoice.controller';

/** Invoices over HTTP: `E/settings/`, `E/invoices/`, `O/invoices/`, `E/orders/{code}/create_invoice/`. */
@Module({
  imports: [InvoicesCoreModule],
  controllers: [
    InvoiceSettingsController,
    InvoicesController,
    OrganizerInvoicesController,
    OrderInvoiceController,
  ],
})
export class InvoicesModule {}
