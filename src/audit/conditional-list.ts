import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { from, Observable, switchMap } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/request-context';
import { NotModified, PreconditionFailed } from '../common/errors';
import { PRECONDITION_FAILED_DESCRIPTION } from '../common/http/openapi-errors';
import { AuditLogService } from './audit-log.service';

const CONTENT_TYPES = 'ticketing:conditional-list';

/** Second-precision HTTP date parsing; invalid dates are ignored (the header is then as if absent). */
function httpDate(value: string | undefined): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/**
 * Conditional list fetching (compat §1.7): `Last-Modified` is the newest audit log entry of the listed content
 * types within the event (second precision). `If-Modified-Since` at or after it answers 304 with no body;
 * `If-Unmodified-Since` before it answers 412.
 */
@Injectable()
export class ConditionalListInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditLogService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const types = this.reflector.get<string[] | undefined>(CONTENT_TYPES, context.getHandler()) ?? [];
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const event = req.access?.event;
    if (!event || types.length === 0) return next.handle();
    return from(this.audit.lastModified(event.id, types)).pipe(
      switchMap((last) => {
        if (last) {
          const seconds = Math.floor(last.getTime() / 1000) * 1000;
          res.setHeader('Last-Modified', new Date(seconds).toUTCString());
          const since = httpDate(req.headers['if-modified-since']);
          // RFC 9110 §13.1.3: with `If-None-Match` (the ETag, common/http/etag.ts) `If-Modified-Since` is ignored.
          const noneMatch = req.headers['if-none-match'] !== undefined;
          if (since !== null && since >= seconds && !noneMatch) throw new NotModified();
          const unmodifiedSince = httpDate(req.headers['if-unmodified-since']);
          if (unmodifiedSince !== null && unmodifiedSince < seconds) {
            throw new PreconditionFailed();
          }
        }
        return next.handle();
      }),
    );
  }
}

/**
 * Marks an event-scoped list endpoint for conditional fetching by the audit log content types that change it
 * (for example `@ConditionalList('item')` on the item list), and documents the request headers and the 304 and
 * 412 answers in the OpenAPI document (412 gets its error body there, see `common/http/openapi-errors.ts`).
 */
export const ConditionalList = (...contentTypes: string[]) =>
  applyDecorators(
    SetMetadata(CONTENT_TYPES, contentTypes),
    UseInterceptors(ConditionalListInterceptor),
    ApiHeader({
      name: 'If-Modified-Since',
      required: false,
      description: 'An HTTP date: 304 without a body when the list has not changed since.',
    }),
    ApiHeader({
      name: 'If-Unmodified-Since',
      required: false,
      description: 'An HTTP date: 412 when the list has changed since.',
    }),
    ApiResponse({ status: 304, description: 'Not modified since `If-Modified-Since` (no body).' }),
    ApiResponse({ status: 412, description: PRECONDITION_FAILED_DESCRIPTION }),
  );
