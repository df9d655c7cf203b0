import { Module } from '@nestjs/common';

/** Sales: order status actions (mark_paid, mark_pending, mark_expired, mark_canceled, reactivate, extend, approve, deny). */
@Module({})
export class OrderActionsModule {}
