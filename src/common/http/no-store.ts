import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import type { Observable } from 'rxjs';

/** Route metadata key of {@link NoStore}. */
export const NO_STORE = 'ticketing:no-store';

/**
 * Marks a handler (or every handler of a controller) whose answers carry a secret: a new API token, a webhook
 * secret, order and ticket secrets, gift card secrets, invoice PDFs, shredder downloads. {@link NoStoreInterceptor}
 * then sends `Cache-Control: no-store` and `Pragma: no-cache` on every answer of the route, errors and
 * idempotent replays included (README "Security", "Secrets in answers").
 */
export const NoStore = () => SetMetadata(NO_STORE, true);

/**
 * Global interceptor for {@link NoStore}: sets the headers before the handler runs, so that whatever answers the
 * request (the handler, the exception filter, a replay of a stored idempotent answer) carries them. Registered
 * before the idempotency interceptor.
 */
@Injectable()
export class NoStoreInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (
      context.getType() === 'http' &&
      this.reflector.getAllAndOverride<boolean | undefined>(NO_STORE, [
        context.getHandler(),
        context.getClass(),
      ])
    ) {
      const res = context.switchToHttp().getResponse<Response>();
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
    }
    return next.handle();
  }
}
