import { Module } from '@nestjs/common';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { CheckinPositions } from './checkin-positions';

/**
 * The seam to the check-in context, which sits above orders: {@link CheckinPositions}, the positions a check-in
 * list admits (compat §3.20, §3.21), presented as order positions. Imported by the check-in context's modules.
 */
@Module({
  imports: [OrderPresentationModule],
  providers: [CheckinPositions],
  exports: [CheckinPositions],
})
export class CheckinSeamModule {}
