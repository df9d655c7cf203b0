import { Module } from '@nestjs/common';
import { OAuthCoreModule } from './oauth-core.module';
import { TokenController } from './token.controller';

/**
 * OAuth 2.0 provider (spec "Authentication", "OAuth and profile"; issue 12): the token and revoke endpoints, the
 * login, consent and account pages.
 */
@Module({
  imports: [OAuthCoreModule],
  controllers: [TokenController],
})
export class OAuthModule {}
