import type { INestApplication, LoggerService } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'http';
import { onStopSignal } from '../process/stop-signal';

/**
 * Tracks the responses in flight on `server` and, once `draining()` says so, makes each of them the last one of
 * its connection (`Connection: close`, the socket ends after it): no further request is read from a keep-alive
 * connection once the stop began. Returns the hook that marks the responses already in flight.
 */
function lastResponsePerConnection(server: Server, draining: () => boolean): () => void {
  const inFlight = new Set<ServerResponse>();
  const closeAfter = (res: ServerResponse) => {
    res.shouldKeepAlive = false;
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining()) closeAfter(res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  return () => {
    for (const res of inFlight) {
      if (res.writableEnded) continue;
      closeAfter(res);
      // An event stream never finishes by itself: end it now (its client reconnects elsewhere and resumes).
      if (String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream')) res.end();
    }
  };
}

/**
 * Graceful stop of the API process on SIGTERM/SIGINT (README "Security", "Faults and shutdown"): the
 * listening socket closes at once (new connections are refused) and idle keep-alive connections are closed at
 * once; a connection with a request in flight gets its answer with `Connection: close` and is closed after it, so
 * no new request is read from it and none is cut mid-flight by the stop itself; server-sent event streams
 * (`text/event-stream`, which never end by themselves) are ended at once. In-flight requests finish for at
 * most `graceSeconds` (then their connections are closed), then the application closes (database pool, Redis)
 * and the process exits 0 (1 when closing fails). Call before `listen`.
 */
export function stopGracefullyOnSignals(
  app: INestApplication,
  graceSeconds: number,
  logger: LoggerService,
): void {
  const server = app.getHttpServer() as Server;
  let draining = false;
  const markInFlight = lastResponsePerConnection(server, () => draining);
  onStopSignal(logger, async (signal) => {
    logger.log(`${signal} received: no new connections, in-flight requests get up to ${graceSeconds} s`);
    draining = true;
    markInFlight();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => {
      logger.warn(`grace period of ${graceSeconds} s over: closing the remaining connections`);
      server.closeAllConnections();
    }, graceSeconds * 1000);
    await drained;
    clearTimeout(force);
    await app.close();
  });
}
