import { Module } from '@nestjs/common';
import { QuotasModule } from '../quotas/quotas.module';
import { VouchersController } from './vouchers.controller';
import { VouchersService } from './vouchers.service';

/** Catalogue: vouchers (compat §3.23); blocking vouchers reserve quota through QuotasModule's reservations. */
@Module({
  imports: [QuotasModule],
  controllers: [VouchersController],
  providers: [VouchersService],
  exports: [VouchersService],
})
export class VouchersModule {}
