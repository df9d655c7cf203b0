import { DynamicModule, Module } from '@nestjs/common';
import { PortsModule, withPorts } from '../catalogue-ports';
import { DiscountsController } from './discounts.controller';
import { DiscountQueries } from './discount.queries';
import { DiscountsService } from './discounts.service';
import { AuditModule } from '../../audit/audit.module';
import { TenancyModule } from '../../organizers/tenancy.module';

/** Catalogue: discounts (`E/discounts/`, DELETE also at `E/discount/{id}/`). Deletion asks the DISCOUNT_USAGE port, provided by `ports` (mandatory). */
@Module({
  imports: [AuditModule],
})
export class DiscountsModule {
  static register(ports: PortsModule): DynamicModule {
    return withPorts(DiscountsModule, ports, {
      imports: [TenancyModule],
      controllers: [DiscountsController],
      providers: [DiscountsService, DiscountQueries],
    });
  }
}
