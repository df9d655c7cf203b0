import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import type { PortsModule } from '../catalogue/catalogue-ports';
import { VoucherIssuingModule } from '../catalogue/vouchers/voucher-issuing.module';
import { MailModule } from '../mail/mail.module';
import { TenancyModule } from '../organizers/tenancy.module';
import { WaitingListAutoAssign } from './waiting-list-auto-assign.periodic';
import { WaitingListEntry } from './waiting-list-entry.entity';
import { WaitingListSettingsModule } from './waiting-list-settings.module';
import { WaitingListVouchers } from './waiting-list-vouchers.service';
import { WaitingListController } from './waiting-list.controller';
import { WaitingListService } from './waiting-list.service';

/**
 * The waiting list's services without routes: entries, settings, sending vouchers and the automatic assignment
 * (the scheduler's `waitinglist.assign`). Vouchers are issued through the catalogue's {@link VoucherIssuingModule},
 * which needs the catalogue's ports from `ports` (the composition root hands it the orders' SalesPortsModule).
 */
@Module({})
export class WaitingListCoreModule {
  static register(ports: PortsModule): DynamicModule {
    return {
      module: WaitingListCoreModule,
      imports: [
        AuditModule,
        MailModule,
        TenancyModule,
        VoucherIssuingModule.register(ports),
        WaitingListSettingsModule,
        TypeOrmModule.forFeature([WaitingListEntry]),
      ],
      providers: [WaitingListVouchers, WaitingListService, WaitingListAutoAssign],
      exports: [WaitingListSettingsModule, WaitingListService, WaitingListAutoAssign],
    };
  }
}

/** `E/waitinglistentries/` in the API process. */
@Module({})
export class WaitingListModule {
  static register(ports: PortsModule): DynamicModule {
    return {
      module: WaitingListModule,
      imports: [WaitingListCoreModule.register(ports)],
      controllers: [WaitingListController],
      exports: [WaitingListCoreModule],
    };
  }
}
