import { Logger } from '@nestjs/common';
import { setFlagsFromString } from 'v8';
import { createApiApp } from './app.factory';
import { stopGracefullyOnSignals } from './common/http/graceful-shutdown';
import { loadConfig, startupFailure } from './config/app-config';

/** API process entry point (`npm run start:api`); SIGTERM stops it gracefully (`SHUTDOWN_GRACE_SECONDS`). */
async function main(): Promise<void> {
  const config = loadConfig();
  // Old-generation growth (README "Configuration" `HEAP_GROWING_PERCENT`); read by V8 at each GC.
  if (config.heapGrowingPercent > 0)
    setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
  const app = await createApiApp();
  const logger = new Logger('API');
  stopGracefullyOnSignals(app, config.shutdownGraceSeconds, logger);
  await app.listen(config.port);
  logger.log(
    `API listening on http://127.0.0.1:${config.port}/api/v1/ (API page: http://127.0.0.1:${config.port}/api/v1/docs/)`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(startupFailure('API', err));
  process.exit(1);
});
