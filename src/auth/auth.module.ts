import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { RateLimitModule } from '../common/rate-limit/redis-counters';
import { CredentialsService } from './credentials.service';
import { FailedAuthThrottle } from './failed-auth-throttle';
import { CredentialGuard, PermissionGuard } from './guards';
import { IdempotencyQuery } from '../common/http/idempotency-query';
import { IdempotencyQueries } from '../common/http/idempotency.queries';
import { IdempotencyQueryController } from './idempotency-query.controller';
import { MeController } from './me.controller';
import { VersionController } from './version.controller';
import { BearerTokenStrategy, TeamTokenStrategy } from './strategies';
import { UsersModule } from './users.module';

/**
 * Credentials, the global guards (authentication, then default-deny permissions) and `/me`. The
 * `CREDENTIAL_RESOLVER` and `ACCESS_TOKEN_RESOLVER` ports come from the modules the application passes in (the
 * teams and oauth contexts), so that this
 * context imports no context above it.
 */
@Module({})
export class AuthModule {
  /** @param resolverFrom modules that export `CREDENTIAL_RESOLVER` and `ACCESS_TOKEN_RESOLVER` */
  static forRoot(resolverFrom: NonNullable<ModuleMetadata['imports']>): DynamicModule {
    return {
      module: AuthModule,
      imports: [PassportModule, UsersModule, RateLimitModule, ...resolverFrom],
      controllers: [MeController, VersionController, IdempotencyQueryController],
      providers: [
        CredentialsService,
        FailedAuthThrottle,
        TeamTokenStrategy,
        BearerTokenStrategy,
        { provide: APP_GUARD, useClass: CredentialGuard },
        { provide: APP_GUARD, useClass: PermissionGuard },
        IdempotencyQueries,
        IdempotencyQuery,
      ],
      exports: [CredentialsService, UsersModule],
    };
  }
}
