import { DynamicModule, Module } from '@nestjs/common';
import type { PortsModule } from '../catalogue-ports';
import { QuotaReservations } from '../quotas/quota-reservations.service';
import { VoucherRedemptions } from '../vouchers/voucher-redemptions.service';
import { CatalogueReadsModule } from './catalogue-reads.module';
import { AuditModule } from '../../audit/audit.module';

/**
 * The catalogue's shared sales services: reserving quota ({@link QuotaReservations}) and redeeming vouchers
 * ({@link VoucherRedemptions}), with the reads of {@link CatalogueReadsModule}. Used by the catalogue's quotas and
 * vouchers and by the orders context. They need the QuotaAvailability and VoucherCartHolds ports, from the module
 * given to {@link register}.
 */
@Module({
  imports: [AuditModule],
})
export class CatalogueSalesModule {
  static register(ports: PortsModule): DynamicModule {
    return {
      module: CatalogueSalesModule,
      imports: [ports, CatalogueReadsModule],
      providers: [QuotaReservations, VoucherRedemptions],
      exports: [QuotaReservations, VoucherRedemptions, CatalogueReadsModule],
    };
  }
}
