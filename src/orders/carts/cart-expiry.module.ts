import { Module } from '@nestjs/common';
import { CartExpiry } from './cart-expiry.periodic';

/** The periodic purge of expired cart positions ({@link CartExpiry}); the worker imports it. */
@Module({ providers: [CartExpiry] })
export class CartExpiryModule {}
