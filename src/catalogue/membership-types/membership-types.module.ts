import { DynamicModule, Module } from '@nestjs/common';
import { PortsModule, withPorts } from '../catalogue-ports';
import { MembershipTypesController } from './membership-types.controller';
import { MembershipTypeQueries } from './membership-type.queries';
import { MembershipTypesService } from './membership-types.service';
import { AuditModule } from '../../audit/audit.module';

/** Catalogue: membership types (organizer level, `O/membershiptypes/`). Deletion asks the MEMBERSHIP_TYPE_USAGE port, provided by `ports` (mandatory). */
@Module({
  imports: [AuditModule],
})
export class MembershipTypesModule {
  static register(ports: PortsModule): DynamicModule {
    return withPorts(MembershipTypesModule, ports, {
      controllers: [MembershipTypesController],
      providers: [MembershipTypesService, MembershipTypeQueries],
    });
  }
}
