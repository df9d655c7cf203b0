import { Module } from '@nestjs/common';

/** Catalogue: item variations. */
@Module({})
export class VariationsModule {}
