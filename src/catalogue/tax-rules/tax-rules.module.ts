import { Module } from '@nestjs/common';

/** Catalogue: tax rules. */
@Module({})
export class TaxRulesModule {}
