import type { INestApplication, LoggerService } from '@nestjs/common';
import type { Server } from 'http';
import { onStopSignal } from '../process/stop-signal';

/**
 * Graceful stop of the API process on SIGTERM/SIGINT (issue 7 "Graceful shutdown"): the listening socket closes
 * at once (new connections are refused, idle keep-alive connections closed), in-flight requests finish for at
 * most `graceSeconds` (then their connections are closed), then the application closes (database pool, Redis)
 * and the process exits 0 (1 when closing fails).
 */
export function stopGracefullyOnSignals(
  app: INestApplication,
  graceSeconds: number,
  logger: LoggerService,
): void {
  onStopSignal(logger, async (signal) => {
    const server = app.getHttpServer() as Server;
    logger.log(`${signal} received: no new connections, in-flight requests get up to ${graceSeconds} s`);
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    const force = setTimeout(() => {
      logger.warn(`grace period of ${graceSeconds} s over: closing the remaining connections`);
      server.closeAllConnections();
    }, graceSeconds * 1000);
    await drained;
    clearTimeout(force);
    await app.close();
  });
}
