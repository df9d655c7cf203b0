import { Inject, Injectable, Module, RequestMethod } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { IncomingMessage, ServerResponse } from 'http';
import { LoggerModule } from 'nestjs-pino';
import pino, { Logger as Pino, LevelWithSilent } from 'pino';
import { pinoHttp } from 'pino-http';
import { AppConfig } from '../../config/app-config';

const PINO_LEVELS: Record<AppConfig['logLevel'], LevelWithSilent> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** The process's root pino logger (JSON lines on stdout, or pino-pretty when `LOG_FORMAT=pretty`). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * Builds the root logger. `LOG_FORMAT=pretty` needs the dev dependency `pino-pretty`; where it is not installed
 * (a production image) the logger stays JSON and says so once.
 */
export function rootLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>): Pino {
  const level = PINO_LEVELS[config.logLevel];
  // Belt and braces: the request log never includes headers, but nothing may ever print a credential.
  const redact = {
    paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
    remove: true,
  };
  if (config.logFormat === 'pretty') {
    try {
      require.resolve('pino-pretty');
      return pino({ level, redact, transport: { target: 'pino-pretty', options: { colorize: true } } });
    } catch {
      const logger = pino({ level, redact });
      logger.warn('LOG_FORMAT=pretty needs the pino-pretty package, which is not installed: logging JSON');
      return logger;
    }
  }
  return pino({ level, redact });
}

type LoggedRequest = IncomingMessage & {
  id?: string;
  route?: { path?: string };
  baseUrl?: string;
  originalUrl?: string;
  user?: { identity?: { kind?: string; tokenId?: number; userId?: number; device?: { id: number } } };
};

/** `team_token:5`, `user:3` or `device:7` (the device's database id) for an authenticated request, else null. Never the secret itself. */
function credentialOf(req: LoggedRequest): string | null {
  const identity = req.user?.identity;
  if (!identity?.kind) return null;
  const id = identity.tokenId ?? identity.userId ?? identity.device?.id;
  return id === undefined ? identity.kind : `${identity.kind}:${id}`;
}

/** The matched route pattern (`/api/v1/organizers/:organizer/events/`), null when no route matched. */
function routeOf(req: LoggedRequest): string | null {
  const pattern = req.route?.path;
  if (typeof pattern !== 'string') return null;
  const route = `${req.baseUrl ?? ''}${pattern}`;
  // Nest registers `/organizers/:organizer`; the client called it with pretix's trailing slash.
  return (req.originalUrl ?? '').split('?')[0].endsWith('/') && !route.endsWith('/') ? `${route}/` : route;
}

/**
 * The request log (README "Configuration"): one line per request when the response is finished, with
 * `method`, `route` (pattern), `path` (without query), `status`, `duration_ms`, `request_id` and `credential_id`.
 * Headers and bodies are never logged, so neither a token nor an `Authorization` header can appear. Every log
 * line written while a request runs (errors of the exception filter included) carries its `request_id`.
 */
export function requestLogMiddleware(logger: Pino) {
  const fields = (req: LoggedRequest, res: ServerResponse, responseTime: number) => ({
    method: req.method,
    route: routeOf(req),
    path: (req.originalUrl ?? req.url ?? '').split('?')[0],
    status: res.statusCode,
    duration_ms: responseTime,
    credential_id: credentialOf(req),
  });
  return pinoHttp<LoggedRequest, ServerResponse>({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
    // The id is chosen by the `requestId` middleware that runs first (X-Request-Id).
    genReqId: (req) => req.id ?? '',
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    customSuccessObject: (req, res, val: { duration_ms: number }) => fields(req, res, val.duration_ms),
    customErrorObject: (req, res, _err, val: { duration_ms: number }) => fields(req, res, val.duration_ms),
  });
}

/** Installs {@link requestLogMiddleware} on the app (before the body parsers, so refused bodies are logged). */
@Injectable()
export class RequestLogging {
  constructor(@Inject(ROOT_LOGGER) private readonly logger: Pino) {}

  middleware(): (req: Request, res: Response, next: NextFunction) => void {
    return requestLogMiddleware(this.logger) as unknown as (
      req: Request,
      res: Response,
      next: NextFunction,
    ) => void;
  }
}

/** Provides the one root logger of the process. */
@Module({
  providers: [{ provide: ROOT_LOGGER, useFactory: rootLogger, inject: [AppConfig] }],
  exports: [ROOT_LOGGER],
})
class RootLoggerModule {}

/**
 * nestjs-pino on the root logger: Nest's `Logger` writes through pino, bound to the current request's logger
 * (so its `request_id`) while a request runs. The API installs {@link RequestLogging}'s middleware itself.
 */
@Module({
  imports: [
    RootLoggerModule,
    LoggerModule.forRootAsync({
      imports: [RootLoggerModule],
      inject: [ROOT_LOGGER],
      useFactory: (logger: Pino) => ({
        pinoHttp: { logger },
        useExisting: true,
        // Express 5 wildcard syntax (nestjs-pino's default `*` draws a start-up warning).
        forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
      }),
    }),
  ],
  providers: [RequestLogging],
  exports: [RequestLogging],
})
export class RequestLoggingModule {}
