import { DynamicModule, Module, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenancyModule } from '../../organizers/tenancy.module';
import { AuditModule } from '../../audit/audit.module';
import { CatalogueReadsModule } from '../../catalogue/sales/catalogue-reads.module';
import { CheckinSeamModule } from '../../orders/checkin-seam/checkin-seam.module';
import { OrderWritingModule } from '../../orders/writing/order-writing.module';
import { AutoCheckinRule, AutoCheckinRuleItem, AutoCheckinRuleVariation } from './auto-checkin-rule.entity';
import { AutoCheckinRulesController } from './auto-checkin-rules.controller';
import { AutoCheckinRulesService } from './auto-checkin-rules.service';
import { AutoCheckinQueries } from './auto-checkin.queries';
import { AutoCheckinService } from './auto-checkin.service';

/**
 * Automatic check-in (pretix 2025+ plugin `autocheckin`): the rules' CRUD (`E/auto_checkin_rules/`) and
 * {@link AutoCheckinService}, which registers with the orders context's `OrderHooks` at init, so it must be loaded
 * wherever orders are placed or paid (the API).
 */
@Module({})
export class AutoCheckinModule {
  /** @param events provides the `CHECKIN_EVENTS` port (the lists' live streams; the sync context's publisher) */
  static register(events: Type): DynamicModule {
    return {
      module: AutoCheckinModule,
      imports: [
        TypeOrmModule.forFeature([AutoCheckinRule, AutoCheckinRuleItem, AutoCheckinRuleVariation]),
        AuditModule,
        CatalogueReadsModule,
        CheckinSeamModule,
        OrderWritingModule,
        TenancyModule,
        events,
      ],
      controllers: [AutoCheckinRulesController],
      providers: [AutoCheckinQueries, AutoCheckinRulesService, AutoCheckinService],
    };
  }
}
