import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { PortsModule } from '../catalogue-ports';
import { CatalogueSalesModule } from '../sales/catalogue-sales.module';
import { Voucher } from './voucher.entity';
import { VouchersController } from './vouchers.controller';
import { VoucherChangeRenderer } from './voucher-change-renderer';
import { VouchersService } from './vouchers.service';
import { VoucherSeatBinding } from './voucher-seat-binding';
import { AuditModule } from '../../audit/audit.module';

/**
 * Catalogue: vouchers (compat §3.23); blocking vouchers reserve quota through QuotaReservations, which needs the
 * ports of `ports`; seats are bound through the VOUCHER_SEATS port of `ports`.
 */
@Module({
  imports: [AuditModule],
})
export class VouchersModule {
  static register(ports: PortsModule): DynamicModule {
    return {
      module: VouchersModule,
      imports: [ports, CatalogueSalesModule.register(ports), TypeOrmModule.forFeature([Voucher])],
      controllers: [VouchersController],
      providers: [VouchersService, VoucherSeatBinding, VoucherChangeRenderer],
    };
  }
}
