import { BullModule } from '@nestjs/bull';
import { AppConfig } from './config/app-config';

/** Names of the Bull queues (architecture.md "Processes"). */
export const QUEUES = {
  scheduler: 'scheduler',
  mail: 'mail',
  invoices: 'invoices',
  exports: 'exports',
  shredder: 'shredder',
} as const;

/** Redis connection for every queue of a process (API enqueues, worker processes). */
export const BullRootModule = BullModule.forRootAsync({
  inject: [AppConfig],
  useFactory: (config: AppConfig) => ({
    redis: config.redisUrl,
    prefix: config.queuePrefix,
  }),
});
