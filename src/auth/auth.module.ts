import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { RateLimitModule } from '../common/rate-limit/redis-counters';
import { CredentialsService } from './credentials.service';
import { FailedAuthThrottle } from './failed-auth-throttle';
import { CredentialGuard, PermissionGuard } from './guards';
import { MeController } from './me.controller';
import { BearerTokenStrategy, DeviceTokenStrategy, TeamTokenStrategy } from './strategies';
import { UsersModule } from './users.module';

/**
 * Credentials, the global guards (authentication, then default-deny permissions) and `/me`. The
 * `CREDENTIAL_RESOLVER`, `ACCESS_TOKEN_RESOLVER` and `DEVICE_RESOLVER` ports come from the modules the application
 * passes in (the teams, oauth and devices contexts), so that this
 * context imports no context above it.
 */
@Module({})
export class AuthModule {
  /** @param resolverFrom modules that export `CREDENTIAL_RESOLVER`, `ACCESS_TOKEN_RESOLVER` and `DEVICE_RESOLVER` */
  static forRoot(resolverFrom: NonNullable<ModuleMetadata['imports']>): DynamicModule {
    return {
      module: AuthModule,
      imports: [PassportModule, UsersModule, RateLimitModule, ...resolverFrom],
      controllers: [MeController],
      providers: [
        CredentialsService,
        FailedAuthThrottle,
        TeamTokenStrategy,
        BearerTokenStrategy,
        DeviceTokenStrategy,
        { provide: APP_GUARD, useClass: CredentialGuard },
        { provide: APP_GUARD, useClass: PermissionGuard },
      ],
      exports: [CredentialsService, UsersModule],
    };
  }
}
