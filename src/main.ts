import { Logger } from '@nestjs/common';
import { createApiApp } from './app.factory';
import { loadConfig, startupFailure } from './config/app-config';

/** API process entry point (`npm run start:api`). */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApiApp();
  await app.listen(config.port);
  new Logger('API').log(`API listening on http://127.0.0.1:${config.port}/api/v1/`);
}

main().catch((err: unknown) => {
  process.stderr.write(startupFailure('API', err));
  process.exit(1);
});
