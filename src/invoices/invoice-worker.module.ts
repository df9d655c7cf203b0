import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { MailModule } from '../mail/mail.module';
import { TasksModule } from '../tasks/tasks.module';
import { InvoicePdfProcessor } from './invoice-pdf.processor';
import { InvoicePdfRenderer } from './invoice-pdf-renderer';
import { InvoiceTransmitter } from './invoice-transmitter';

/**
 * The worker's part of the invoices context: the `invoices` queue (PDF renders, transmissions) and the
 * completion of e-mailed transmissions by their mail's outcome (registered with the mail context at init).
 */
@Module({
  imports: [TasksModule, MailModule, AuditModule],
  providers: [InvoicePdfRenderer, InvoiceTransmitter, InvoicePdfProcessor],
})
export class InvoiceWorkerModule {}
