import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { PortsModule } from '../catalogue-ports';
import { CatalogueSalesModule } from '../sales/catalogue-sales.module';
import { Voucher } from './voucher.entity';
import { VouchersService } from './vouchers.service';
import { VoucherSeatBinding } from './voucher-seat-binding';
import { AuditModule } from '../../audit/audit.module';

/**
 * {@link VouchersService} without the routes, for higher contexts that issue vouchers as part of their own use
 * case (the waiting list's `send_voucher`, in the API and the worker). Needs the ports of `ports` as
 * {@link VouchersModule} does.
 */
@Module({
  imports: [AuditModule],
})
export class VoucherIssuingModule {
  static register(ports: PortsModule): DynamicModule {
    return {
      module: VoucherIssuingModule,
      imports: [ports, CatalogueSalesModule.register(ports), TypeOrmModule.forFeature([Voucher])],
      providers: [VouchersService, VoucherSeatBinding],
      exports: [VouchersService, CatalogueSalesModule],
    };
  }
}
