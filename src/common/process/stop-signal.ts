import type { LoggerService } from '@nestjs/common';

/**
 * Runs `stop` once, on the first SIGTERM or SIGINT (later signals are ignored while it runs), then exits the
 * process: 0 when `stop` resolved ("stopped" logged), 1 when it failed (the error logged). Used by the API
 * (graceful HTTP drain) and the worker (running jobs finish or go back to the queue).
 */
export function onStopSignal(logger: LoggerService, stop: (signal: string) => Promise<void>): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    stop(signal).then(
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
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
}
