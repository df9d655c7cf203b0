import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { PositionBlockingController } from './position-blocking.controller';
import { PositionBlockingQueries } from './position-blocking.queries';
import { PositionBlocking } from './position-blocking.service';
import { TicketSecretsController } from './ticket-secrets.controller';

/**
 * Ticket blocking over HTTP (pretix "Order position endpoints" `add_block`/`remove_block`) and the secret lists
 * scanners download (`E/blockedsecrets/`, `E/revokedsecrets/`).
 */
@Module({
  imports: [AuditModule, OrderPresentationModule],
  controllers: [PositionBlockingController, TicketSecretsController],
  providers: [PositionBlocking, PositionBlockingQueries],
})
export class PositionBlockingModule {}
