import { Module } from '@nestjs/common';
import { QuotaReservations } from './quota-reservations.service';

/** Catalogue: quotas, their availability and reservations on them. */
@Module({
  providers: [QuotaReservations],
  exports: [QuotaReservations],
})
export class QuotasModule {}
