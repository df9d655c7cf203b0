import { Logger } from '@nestjs/common';
import { setFlagsFromString } from 'v8';
import { createApiApp } from './app.factory';
import { loadConfig } from './config/app-config';

/** API process entry point (`npm run start:api`). */
async function main(): Promise<void> {
  const config = loadConfig();
  // Old-generation growth (issue 7: API RSS under 250 MB at 50 concurrent connections); read by V8 at each GC.
  if (config.heapGrowingPercent > 0)
    setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
  const app = await createApiApp();
  await app.listen(config.port);
  new Logger('API').log(
    `API listening on http://127.0.0.1:${config.port}/api/v1/ (API page: http://127.0.0.1:${config.port}/api/v1/docs/)`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(
    `API failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
