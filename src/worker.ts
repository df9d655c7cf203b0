import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { logLevels } from './app.factory';
import { loadConfig } from './config/app-config';
import { QueueWorkers } from './tasks/queue-workers.service';
import { WorkerModule } from './worker.module';

/**
 * Worker process entry point (`npm run start:worker`). SIGTERM/SIGINT stop it gracefully: no new jobs, running
 * jobs finish within `WORKER_SHUTDOWN_GRACE_MS` or go back to the queue, pools close, exit code 0.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    logger: logLevels(config.logLevel),
  });
  const logger = new Logger('Worker');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: stopping`);
    app.close().then(
      () => {
        logger.log('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  await app.init();
  logger.log(`Worker ready: processing ${app.get(QueueWorkers).queues.join(', ')}`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Worker failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
