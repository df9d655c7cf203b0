import { createConnection, createServer, Server, Socket } from 'net';

/**
 * A TCP proxy in front of the shared Redis, so a test can take "Redis" away from the processes it started (and
 * give it back) without touching the real server other test files use.
 */
export class RedisProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target = { host: '127.0.0.1', port: 6379 },
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Accepts connections again (Redis "back"). */
  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** Closes the port and cuts every open connection (Redis "down"). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
