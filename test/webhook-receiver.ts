import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import type { AddressInfo, Socket } from 'net';

/** One request a {@link WebhookReceiver} got. */
export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * What the receiver answers on a path: a status, or `hang` (no answer; the connection stays open until the
 * sender gives up). `n` is how many requests with the same `webhook-id` arrived before this one on the path.
 */
export type Answer = (req: ReceivedHook, n: number) => number | 'hang';

/** A real HTTP receiver on a loopback port for webhook tests and the bench. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Requests received on a path. */
  on(path: string): ReceivedHook[];
  /** Sets the answer of a path (default 200). */
  answer(path: string, fn: Answer): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (an ephemeral port). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const answers = new Map<string, Answer>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hook: ReceivedHook = {
        path: req.url ?? '/',
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const n = received.filter((r) => r.path === hook.path && r.headers['webhook-id'] === hook.headers['webhook-id'])
        .length;
      received.push(hook);
      const answer = (answers.get(hook.path) ?? (() => 200))(hook, n);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on: (path) => received.filter((r) => r.path === path),
    answer: (path, fn) => answers.set(path, fn),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
