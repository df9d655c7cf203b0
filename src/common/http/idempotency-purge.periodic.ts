import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Periodic } from '../contributions';
import { purgeExpiredIdempotencyRecords } from './idempotency';

/** The periodic purge of expired idempotency records (worker only; spec "Idempotency": records keep 24 hours). */
@Injectable()
export class IdempotencyPurge {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Deletes the expired records. @returns how many */
  @Periodic('common.idempotency-purge')
  purge(): Promise<number> {
    return purgeExpiredIdempotencyRecords(this.db);
  }
}
