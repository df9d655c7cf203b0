import { DynamicModule, Module } from '@nestjs/common';
import { PortsModule, withPorts } from '../catalogue-ports';
import { TaxRulesController } from './tax-rules.controller';
import { TaxRulesService } from './tax-rules.service';

/** Catalogue: tax rules (`E/taxrules/`). Deletion asks the TAX_RULE_USAGE port, provided by `ports` (mandatory). */
@Module({})
export class TaxRulesModule {
  static register(ports: PortsModule): DynamicModule {
    return withPorts(TaxRulesModule, ports, {
      controllers: [TaxRulesController],
      providers: [TaxRulesService],
    });
  }
}
