import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { ConditionalWriteQueries } from './http/conditional-write.queries';
import { ConditionalWriteInterceptor } from './http/conditional-writes';
import { EntityTagInterceptor } from './http/etag';
import { ApiExceptionFilter } from './http/exception.filter';
import { IdempotencyInterceptor } from './http/idempotency';
import { IdempotencyLocks } from './http/idempotency-locks';
import { IdempotencyQueries } from './http/idempotency.queries';
import { IdempotentCommits } from './http/idempotent-commit';
import { NoStoreInterceptor } from './http/no-store';
import { OpenApiController, OpenApiDocumentHolder } from './http/openapi';
import { ResourceProbe } from './http/resource-probe';
import { RouteRegistry } from './http/route-registry';
import { ListEnvelopeInterceptor } from './listing/envelope.interceptor';
import { ApiValidationPipe } from './validation/validation.pipe';

/**
 * Cross-cutting HTTP conventions: validation, list envelope, error bodies, route table, OpenAPI, idempotency keys,
 * ETags and conditional writes.
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [OpenApiController],
  providers: [
    RouteRegistry,
    IdempotencyQueries,
    IdempotencyLocks,
    IdempotentCommits,
    // First, so that a replayed idempotent answer carries `Cache-Control: no-store` too.
    { provide: APP_INTERCEPTOR, useClass: NoStoreInterceptor },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    // Inside the idempotency interceptor: a keyed 412 is stored and replayed like any answer.
    ResourceProbe,
    ConditionalWriteQueries,
    { provide: APP_INTERCEPTOR, useClass: ConditionalWriteInterceptor },
    { provide: APP_INTERCEPTOR, useClass: EntityTagInterceptor },
    OpenApiDocumentHolder,
    { provide: APP_PIPE, useClass: ApiValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: ListEnvelopeInterceptor },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ],
  exports: [RouteRegistry],
})
export class CommonModule {}
