import { DynamicModule, Module } from '@nestjs/common';
import { PortsModule, withPorts } from '../catalogue-ports';
import { TaxRulesController } from './tax-rules.controller';
import { TaxRuleQueries } from './tax-rule.queries';
import { TaxRulesService } from './tax-rules.service';
import { AuditModule } from '../../audit/audit.module';

/** Catalogue: tax rules (`E/taxrules/`). Deletion asks the TAX_RULE_USAGE port, provided by `ports` (mandatory). */
@Module({
  imports: [AuditModule],
})
export class TaxRulesModule {
  static register(ports: PortsModule): DynamicModule {
    return withPorts(TaxRulesModule, ports, {
      controllers: [TaxRulesController],
      providers: [TaxRulesService, TaxRuleQueries],
    });
  }
}
