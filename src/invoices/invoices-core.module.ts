import { Module } from '@nestjs/common';
import { InvoiceQueries } from './invoice.queries';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueReadsModule } from '../catalogue/sales/catalogue-reads.module';
import { OrderPresentationModule } from '../orders/presentation/order-presentation.module';
import { OrderWritingModule } from '../orders/writing/order-writing.module';
import { TenancyModule } from '../organizers/tenancy.module';
import { TasksModule } from '../tasks/tasks.module';
import { Invoice } from './invoice.entity';
import { InvoicePdfJobs } from './invoice-pdf-jobs';
import { InvoiceReads } from './invoice-reads.service';
import { InvoiceSettingsService } from './invoice-settings.service';
import { WaitingListSettingsModule } from '../waitinglist/waiting-list-settings.module';
import { InvoiceWriter } from './invoice-writer';
import { InvoicesService } from './invoices.service';
import { InvoiceEventCopy } from './invoice-event-copy';
import { InvoiceTransmissionService } from './invoice-transmission.service';
import { AuditModule } from '../audit/audit.module';

/**
 * The invoices context without HTTP: settings, numbering and writing, reads, the PDF requests. At init it
 * registers with the orders context's `OrderHooks` (automatic and cancellation invoices), so it must be loaded
 * wherever orders change hands with invoices on (the API).
 */
@Module({
  imports: [
    WaitingListSettingsModule,
    OrderPresentationModule,
    OrderWritingModule,
    CatalogueReadsModule,
    TenancyModule,
    TasksModule,
    AuditModule,
    TypeOrmModule.forFeature([Invoice]),
  ],
  providers: [
    InvoiceQueries,
    InvoiceSettingsService,
    InvoiceWriter,
    InvoiceReads,
    InvoicePdfJobs,
    InvoicesService,
    InvoiceEventCopy,
    InvoiceTransmissionService,
  ],
  exports: [InvoiceSettingsService, InvoiceReads, InvoicesService, InvoiceTransmissionService],
})
export class InvoicesCoreModule {}
