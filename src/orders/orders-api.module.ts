import { Module } from '@nestjs/common';

/** Sales: orders (create, read, change, delete), order positions, the organizer-wide order list. */
@Module({})
export class OrdersApiModule {}
