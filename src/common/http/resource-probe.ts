import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AsyncResource } from 'async_hooks';
import { randomBytes } from 'crypto';
import {
  Agent,
  createServer,
  request,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from 'http';
import type { AddressInfo } from 'net';
import type { Request } from 'express';

/** Request headers a probe passes on: the credential and what shapes the answer. */
const FORWARDED = ['authorization', 'cookie', 'accept-language', 'host'] as const;
/** Header naming a probe to {@link probeOrigin} (a random token, valid while the probe runs). */
export const PROBE_HEADER = 'x-resource-probe';
/** Longest a probe may take (milliseconds); it reads one detail. */
const PROBE_TIMEOUT_MS = 10_000;

/** Origins of the running probes, by token: the probe answers with the absolute URLs its client would get. */
const probes = new Map<string, string>();

/**
 * The origin (`<protocol>://<host>`) of the request a probe stands for, when `token` names a running probe;
 * `common/http/request-origin.ts` uses it so that absolute URLs in the probed answer equal those of a real GET.
 */
export function probeOrigin(token: string | string[] | undefined): string | undefined {
  return typeof token === 'string' ? probes.get(token) : undefined;
}

/** What a probe read: the status of the GET and its `ETag` (null without one). */
export interface ProbeAnswer {
  status: number;
  etag: string | null;
}

/**
 * Reads the current representation of a resource the way its client would (README "Sync and concurrency",
 * "Conditional writes"): a GET of `path` through the whole HTTP stack of this very process (authentication,
 * device security profile, permissions, the detail's presenter, {@link EntityTagInterceptor}), with the
 * credential headers of the write being checked. It goes over a loopback listener on 127.0.0.1 (an ephemeral
 * port, opened on first use, outside any request's async context) serving the same Express application, so it
 * needs no knowledge of any resource. Only the status and the `ETag` are kept; the body is discarded.
 */
@Injectable()
export class ResourceProbe implements OnApplicationShutdown {
  private server: Promise<{ server: Server; port: number }> | null = null;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  /** The boot's async scope: the listener's connections must not inherit a request's async context. */
  private readonly scope = new AsyncResource('ResourceProbe');

  constructor(private readonly adapter: HttpAdapterHost) {}

  /** GETs `path` (absolute path, query included) with the credential headers of `req`. */
  async get(req: Request, path: string): Promise<ProbeAnswer> {
    const { port } = await this.listener();
    const token = randomBytes(16).toString('hex');
    probes.set(token, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
    const headers: Record<string, string> = { [PROBE_HEADER]: token, accept: 'application/json' };
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    try {
      return await new Promise<ProbeAnswer>((resolve, reject) => {
        const probe = request(
          {
            host: '127.0.0.1',
            port,
            path,
            method: 'GET',
            headers,
            agent: this.agent,
            timeout: PROBE_TIMEOUT_MS,
          },
          (res) => {
            res.resume();
            res.on('error', reject);
            res.on('end', () => resolve({ status: res.statusCode ?? 500, etag: etagOf(res.headers) }));
          },
        );
        probe.on('timeout', () => probe.destroy(new Error(`resource probe of ${path} timed out`)));
        probe.on('error', reject);
        probe.end();
      });
    } finally {
      probes.delete(token);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.agent.destroy();
    const listening = this.server;
    this.server = null;
    if (!listening) return;
    const { server } = await listening.catch(() => ({ server: null }));
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private listener(): Promise<{ server: Server; port: number }> {
    if (!this.server) {
      const app = this.adapter.httpAdapter.getInstance<RequestListener>();
      const starting = this.scope.runInAsyncScope(
        () =>
          new Promise<{ server: Server; port: number }>((resolve, reject) => {
            const server = createServer(app);
            server.once('error', reject);
            server.listen(0, '127.0.0.1', () =>
              resolve({ server, port: (server.address() as AddressInfo).port }),
            );
          }),
      );
      starting.catch(() => {
        if (this.server === starting) this.server = null;
      });
      this.server = starting;
    }
    return this.server;
  }
}

function etagOf(headers: IncomingHttpHeaders): string | null {
  const value = headers.etag;
  return typeof value === 'string' && value !== '' ? value : null;
}
