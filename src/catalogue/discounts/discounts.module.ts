import { Module } from '@nestjs/common';

/** Catalogue: discounts. */
@Module({})
export class DiscountsModule {}
