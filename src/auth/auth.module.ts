import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CredentialsService } from './credentials.service';
import { CredentialGuard, PermissionGuard } from './guards';
import { MeController } from './me.controller';
import { BearerTokenStrategy, TeamTokenStrategy } from './strategies';
import { User } from './user.entity';
import { UsersService } from './users.service';

/**
 * Credentials, the global guards (authentication, then default-deny permissions) and `/me`. The
 * `CREDENTIAL_RESOLVER` port comes from the module the application passes in (the teams context), so that this
 * context imports no context above it.
 */
@Module({})
export class AuthModule {
  /** @param resolverFrom modules that export `CREDENTIAL_RESOLVER` */
  static forRoot(resolverFrom: NonNullable<ModuleMetadata['imports']>): DynamicModule {
    return {
      module: AuthModule,
      imports: [PassportModule, TypeOrmModule.forFeature([User]), ...resolverFrom],
      controllers: [MeController],
      providers: [
        CredentialsService,
        UsersService,
        TeamTokenStrategy,
        BearerTokenStrategy,
        { provide: APP_GUARD, useClass: CredentialGuard },
        { provide: APP_GUARD, useClass: PermissionGuard },
      ],
      exports: [CredentialsService, UsersService],
    };
  }
}
