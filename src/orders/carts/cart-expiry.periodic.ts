import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Periodic } from '../../common/contributions';
import { purgeExpiredCartPositions } from './cart-expiry';

/**
 * The periodic purge of expired cart positions of every cart (worker only; spec "States and transitions"), see
 * {@link purgeExpiredCartPositions}.
 */
@Injectable()
export class CartExpiry {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Deletes the cart positions expired by now. @returns how many */
  @Periodic('orders.cart-purge')
  purge(): Promise<number> {
    return purgeExpiredCartPositions(this.db);
  }
}
