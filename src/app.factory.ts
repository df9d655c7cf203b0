import { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { Logger } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { parseTrustProxy } from './config/trust-proxy';
import { bodyParsers, requestId } from './common/http/body-parsing';
import { RequestLogging } from './common/http/request-logging';
import { requestOrigin } from './common/http/request-origin';
import { securityHeaders } from './common/http/security-headers';
import { withSharedSchemas } from './common/http/api-schemas';
import { buildOpenApiDocument, OpenApiDocumentHolder, setupApiPage } from './common/http/openapi';
import { API_PREFIX, RouteRegistry } from './common/http/route-registry';
import { withWebhookDocs } from './webhooks/webhook-openapi';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/** Log levels up to and including the configured one. */
export function logLevels(level: AppConfig['logLevel']): LogLevel[] {
  return LEVELS.slice(0, LEVELS.indexOf(level) + 1);
}

/**
 * Creates and initialises the API application exactly as production runs it (used by `main.ts` and by the e2e
 * tests): request logs (pino), security headers, body parsing, URL conventions, global prefix, OpenAPI document.
 */
export async function createApiApp(overrides: Partial<AppConfig> = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(overrides), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  // README "Security", "Client addresses and proxies": only the configured proxies' X-Forwarded-For decides req.ip
  // (default: none).
  app.set('trust proxy', parseTrustProxy(app.get(AppConfig).trustProxy) ?? false);
  app.disable('x-powered-by');
  // Express's weak ETags off: the API's strong ones come from `common/http/etag.ts` (JSON answers only).
  app.set('etag', false);
  app.use(requestId, securityHeaders());
  app.use(app.get(RequestLogging).middleware());
  app.use(...bodyParsers());
  // After the body parsers: their `next` runs in the socket's async context, which would drop the origin.
  app.use(requestOrigin(app.get(AppConfig).apiUrl));
  const registry = app.get(RouteRegistry);
  app.use(registry.middleware());
  app.setGlobalPrefix(API_PREFIX);
  app.get(OpenApiDocumentHolder).document = withWebhookDocs(withSharedSchemas(buildOpenApiDocument(app)));
  setupApiPage(app);
  await app.init();
  return app;
}
