import { Module } from '@nestjs/common';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { CheckinPositions } from './checkin-positions';
import { AnswerQueries } from '../answers/answer.queries';
import { CheckinSeamQueries } from './checkin-seam.queries';

/**
 * The seam to the check-in context, which sits above orders: {@link CheckinPositions}, the positions a check-in
 * list admits (compat §3.20, §3.21), presented as order positions, with the SQL in {@link CheckinSeamQueries}.
 * Imported by the check-in context's modules.
 */
@Module({
  imports: [OrderPresentationModule],
  providers: [CheckinPositions, AnswerQueries, CheckinSeamQueries],
  exports: [CheckinPositions],
})
export class CheckinSeamModule {}
