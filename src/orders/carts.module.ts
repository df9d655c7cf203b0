import { Module } from '@nestjs/common';

/** Sales: cart positions (create, bulk_create, list, get, delete) and their expiry. */
@Module({})
export class CartsModule {}
