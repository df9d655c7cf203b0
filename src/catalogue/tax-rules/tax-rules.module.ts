import { DynamicModule, Module } from '@nestjs/common';
import type { PortsModule } from '../catalogue-ports';
import { TaxRulesController } from './tax-rules.controller';
import { TaxRulesService } from './tax-rules.service';

/** Catalogue: tax rules (`E/taxrules/`). Deletion asks the TAX_RULE_USAGE port, provided by `ports` (mandatory). */
@Module({})
export class TaxRulesModule {
  static register(ports: PortsModule): DynamicModule {
    return {
      module: TaxRulesModule,
      imports: [ports],
      controllers: [TaxRulesController],
      providers: [TaxRulesService],
    };
  }
}
