import { Module } from '@nestjs/common';
import { QuotaReservations } from './quota-reservations.service';
import { QuotasController } from './quotas.controller';
import { QuotasService } from './quotas.service';

/** Catalogue: quotas (`E/quotas/`), their availability and reservations on them. */
@Module({
  controllers: [QuotasController],
  providers: [QuotaReservations, QuotasService],
  exports: [QuotaReservations],
})
export class QuotasModule {}
