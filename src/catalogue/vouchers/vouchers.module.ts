import { Module } from '@nestjs/common';

/** Catalogue: vouchers. */
@Module({})
export class VouchersModule {}
