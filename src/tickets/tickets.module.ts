import { Module } from '@nestjs/common';
import { TicketsController } from './tickets.controller';
import { TicketsCoreModule } from './tickets-core.module';

/** Ticket downloads over HTTP (`E/orders/{code}/download/{output}/`, `E/orderpositions/{id}/download/{output}/`). */
@Module({
  imports: [TicketsCoreModule],
  controllers: [TicketsController],
})
export class TicketsModule {}
