import type { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'crypto';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { createApiApp } from '../src/app.factory';
import type { AppConfig } from '../src/config/app-config';
import { onMaintenanceDb, templateDb, urlFor } from './db';

/** A running API on its own database, for one e2e test file. */
export interface TestApp {
  app: NestExpressApplication;
  db: DataSource;
  /** supertest bound to the app's HTTP server. */
  http: () => TestAgent;
  close: () => Promise<void>;
}

/**
 * Clones the template database, boots the real application on it (same factory as production) and returns
 * helpers. Call in `beforeAll`, and `close()` in `afterAll`.
 */
export async function startTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const template = templateDb();
  const name = `${template.replace(/_template$/, '')}_f${process.pid}_${randomBytes(4).toString('hex')}`;
  await onMaintenanceDb(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (err) {
        // Two files cloning the template at the same moment: PostgreSQL refuses one; retry shortly.
        if (attempt > 20 || !String((err as Error).message).includes('being accessed')) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  const app = await createApiApp({
    databaseUrl: urlFor(name),
    queuePrefix: `test-${name}`,
    logLevel: 'error',
    // Webhook tests deliver to receivers on 127.0.0.1; the default (false) is tested with an explicit override.
    webhookAllowPrivateTargets: true,
    // Absolute links in bodies (ticket `downloads`) stay the same across requests (supertest's port changes).
    apiUrl: 'http://testserver',
    ...overrides,
  });
  const db = app.get<DataSource>(getDataSourceToken());
  const server = app.getHttpServer() as Parameters<typeof request>[0];
  return {
    app,
    db,
    http: () => request(server),
    close: async () => {
      await app.close();
      await onMaintenanceDb(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
    },
  };
}
