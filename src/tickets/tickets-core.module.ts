import { Module } from '@nestjs/common';
import { CatalogueReadsModule } from '../catalogue/sales/catalogue-reads.module';
import { OrderPresentationModule } from '../orders/presentation/order-presentation.module';
import { TasksModule } from '../tasks/tasks.module';
import { TicketDownloads } from './ticket-downloads.service';
import { TicketFileQueries } from './ticket-file.queries';

/** The tickets context without HTTP: the downloads (rule, cache, render requests) and the cache's SQL. */
@Module({
  imports: [OrderPresentationModule, CatalogueReadsModule, TasksModule],
  providers: [TicketFileQueries, TicketDownloads],
  exports: [TicketFileQueries, TicketDownloads],
})
export class TicketsCoreModule {}
