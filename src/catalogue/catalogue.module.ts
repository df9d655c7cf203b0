import { Module } from '@nestjs/common';

/** The event catalogue: categories and items (this issue); variations, quotas, vouchers and more later. */
@Module({})
export class CatalogueModule {}
