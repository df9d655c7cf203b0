import { Module } from '@nestjs/common';

/** Catalogue: item add-ons. */
@Module({})
export class AddonsModule {}
