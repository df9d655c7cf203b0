import { Module } from '@nestjs/common';

/** Catalogue: item bundles. */
@Module({})
export class BundlesModule {}
