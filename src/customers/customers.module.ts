import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { MembershipTypeReadsModule } from '../catalogue/membership-types/membership-type-reads';
import type { PortsModule } from '../catalogue/catalogue-ports';
import { MailModule } from '../mail/mail.module';
import { CustomersController } from './customers.controller';
import { CustomersCoreModule } from './customers-core.module';
import { CustomersService } from './customers.service';
import { MembershipsController } from './memberships.controller';
import { MembershipsService } from './memberships.service';

/**
 * Customers and memberships (`O/customers/`, `O/memberships/`). Sits between the catalogue (membership types)
 * and orders (which name customers). Anonymizing unlinks orders and reusable media through the
 * `CUSTOMER_LINKS` port, provided by `links` (mandatory; the composition root hands it in).
 */
@Module({})
export class CustomersModule {
  static register(links: PortsModule): DynamicModule {
    return {
      module: CustomersModule,
      imports: [AuditModule, MailModule, CustomersCoreModule, MembershipTypeReadsModule, links],
      controllers: [CustomersController, MembershipsController],
      providers: [CustomersService, MembershipsService],
    };
  }
}
