import { Module } from '@nestjs/common';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { CheckinPositions } from './checkin-positions';
import { AnswerQueries } from '../answers/answer.queries';
import { CheckinSeamQueries } from './checkin-seam.queries';
import { RedeemLookupQueries } from './redeem-lookup.queries';
import { CheckinDeltaFrameQueries } from './checkin-delta.queries';
import { AutoCheckinInputs } from './auto-checkin-inputs.queries';

/**
 * The seam to the check-in context, which sits above orders: {@link CheckinPositions}, the positions a check-in
 * list admits (compat §3.20, §3.21), presented as order positions, with the SQL in {@link CheckinSeamQueries};
 * {@link AutoCheckinInputs}, what automatic check-in reads of an order being placed or paid.
 * Imported by the check-in context's modules.
 */
@Module({
  imports: [OrderPresentationModule],
  providers: [
    CheckinPositions,
    AnswerQueries,
    CheckinSeamQueries,
    RedeemLookupQueries,
    AutoCheckinInputs,
    CheckinDeltaFrameQueries,
  ],
  exports: [CheckinPositions, AutoCheckinInputs],
})
export class CheckinSeamModule {}
