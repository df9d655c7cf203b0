import { Logger } from '@nestjs/common';
import { onStopSignal } from './common/process/stop-signal';
import { NestFactory } from '@nestjs/core';
import { setFlagsFromString } from 'v8';
import { logLevels } from './app.factory';
import { loadConfig, startupFailure } from './config/app-config';
import { QueueWorkers } from './tasks/queue-workers.service';

/**
 * Worker process entry point (`npm run start:worker`). SIGTERM/SIGINT stop it gracefully: no new jobs, running
 * jobs finish within `WORKER_SHUTDOWN_GRACE_MS` or go back to the queue, pools close, exit code 0.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // Old-generation growth, as in the API (README "Configuration" `HEAP_GROWING_PERCENT`); read by V8 at each GC.
  if (config.heapGrowingPercent > 0)
    setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
  // Loaded after the configuration is known to be valid (the module reads it when it is defined).
  const { WorkerModule } = await import('./worker.module');
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    logger: logLevels(config.logLevel),
  });
  const logger = new Logger('Worker');
  onStopSignal(logger, async (signal) => {
    logger.log(`${signal} received: stopping`);
    await app.close();
  });
  await app.init();
  logger.log(`Worker ready: processing ${app.get(QueueWorkers).queues.join(', ')}`);
}

main().catch((err: unknown) => {
  process.stderr.write(startupFailure('Worker', err));
  process.exit(1);
});
