import { NestFactory } from '@nestjs/core';
import { logLevels } from './app.factory';
import { loadConfig } from './config/app-config';
import { WorkerModule } from './worker.module';

/** Worker process entry point (`npm run start:worker`). */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    logger: logLevels(config.logLevel),
  });
  app.enableShutdownHooks();
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Worker failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
