import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { UsersModule } from '../auth/users.module';
import { RateLimitModule } from '../common/rate-limit/redis-counters';
import { TeamsModule } from '../teams/teams.module';
import { AccountPagesController } from './account-pages.controller';
import { AuthorizeController } from './authorize.controller';
import { LoginThrottle } from './login-throttle';
import { OAuthCoreModule } from './oauth-core.module';
import { OAuthPages } from './oauth-pages.service';
import { chain, OAuthSessions } from './oauth-sessions';
import { TokenController } from './token.controller';

/**
 * OAuth 2.0 provider (spec "Authentication", "OAuth and profile"; README "OAuth 2.0 applications"): the token and
 * revoke endpoints, the login, consent and account pages. Sessions and cookies are mounted on the pages only,
 * never on the API.
 */
@Module({
  imports: [OAuthCoreModule, UsersModule, TeamsModule, RateLimitModule],
  controllers: [TokenController, AuthorizeController, AccountPagesController],
  providers: [OAuthSessions, LoginThrottle, OAuthPages],
})
export class OAuthModule implements NestModule {
  constructor(private readonly sessions: OAuthSessions) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(chain(this.sessions.middleware)).forRoutes(AuthorizeController, AccountPagesController);
  }
}
