import { Module } from '@nestjs/common';
import { TaxRulesController } from './tax-rules.controller';
import { TaxRulesService } from './tax-rules.service';

/**
 * Catalogue: tax rules (`E/taxrules/`). Sales plug into deletion through the optional `TAX_RULE_USAGE` port
 * (tax-rules.service.ts).
 */
@Module({
  controllers: [TaxRulesController],
  providers: [TaxRulesService],
})
export class TaxRulesModule {}
