import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { CatalogueSalesModule } from '../../catalogue/sales/catalogue-sales.module';
import { OrderStatusQueries } from '../actions/order-status.queries';
import { AnswerQueries } from '../answers/answer.queries';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { SalesPortsModule } from '../sales-ports.module';
import { PositionEditQueries } from './position-edit.queries';
import { PositionEditsController } from './position-edits.controller';
import { PositionEdits } from './position-edits.service';

/**
 * Edits of single order positions over HTTP (pretix "Manipulating individual positions"): `PATCH
 * E/orderpositions/{id}/` and `POST …/regenerate_secrets/`.
 */
@Module({
  imports: [AuditModule, CatalogueSalesModule.register(SalesPortsModule), OrderPresentationModule],
  controllers: [PositionEditsController],
  providers: [PositionEdits, PositionEditQueries, AnswerQueries, OrderStatusQueries],
})
export class PositionEditsModule {}
