import { Module } from '@nestjs/common';
import { QuotasModule } from '../catalogue/quotas/quotas.module';
import { OrderActionsController } from './order-actions.controller';
import { OrderActionsService } from './order-actions.service';
import { MailModule } from '../mail/mail.module';

/** Sales: order status actions (mark_paid, mark_pending, mark_expired, mark_canceled, reactivate, extend, approve, deny). */
@Module({
  imports: [QuotasModule, MailModule],
  controllers: [OrderActionsController],
  providers: [OrderActionsService],
})
export class OrderActionsModule {}
