import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ACCESS_TOKEN_RESOLVER } from '../auth/access-token-resolver';
import { OAuthApplication } from './oauth-application.entity';
import { OAuthApplicationQueries } from './oauth-application.queries';
import { OAuthAuthorizationCodeQueries } from './oauth-authorization-code.queries';
import { OAuthSessionQueries } from './oauth-session.queries';
import { OAuthTokenQueries } from './oauth-token.queries';
import { OAuthHousekeeping } from './oauth-housekeeping';
import { OAuthApplicationsService } from './oauth-applications.service';
import { OAuthAuthorizationCode } from './oauth-authorization-code.entity';
import { OAuthToken } from './oauth-token.entity';
import { OAuthTokensService } from './oauth-tokens.service';

/**
 * The oauth context's storage and services without routes: applications, codes, tokens. Provides auth's
 * `ACCESS_TOKEN_RESOLVER` port, and is what the CLI and the worker's pruning ({@link OAuthHousekeeping}) use.
 */
@Module({
  imports: [TypeOrmModule.forFeature([OAuthApplication, OAuthAuthorizationCode, OAuthToken])],
  providers: [
    OAuthApplicationQueries,
    OAuthAuthorizationCodeQueries,
    OAuthTokenQueries,
    OAuthSessionQueries,
    OAuthApplicationsService,
    OAuthTokensService,
    OAuthHousekeeping,
    { provide: ACCESS_TOKEN_RESOLVER, useExisting: OAuthTokensService },
  ],
  exports: [
    OAuthApplicationsService,
    OAuthTokensService,
    OAuthHousekeeping,
    ACCESS_TOKEN_RESOLVER,
    TypeOrmModule,
  ],
})
export class OAuthCoreModule {}
