import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OAuthSessionQueries } from './oauth-session.queries';
import { OAuthTokensService } from './oauth-tokens.service';
import { Periodic } from '../common/contributions';

/** What one pruning removed. */
export interface OAuthPruned {
  codes: number;
  tokens: number;
  sessions: number;
}

/**
 * Deletes what the OAuth provider can no longer use (run by the worker's scheduler): codes expired a day ago,
 * token pairs whose refresh token is revoked and whose access token expired, and expired sessions (login attempts are
 * counted in Redis, where they expire by themselves).
 */
@Injectable()
export class OAuthHousekeeping {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tokens: OAuthTokensService,
    private readonly sessionQueries: OAuthSessionQueries,
  ) {}

  @Periodic('oauth.prune')
  async prune(): Promise<OAuthPruned> {
    const { codes, tokens } = await this.tokens.prune();
    const sessions = await this.sessionQueries.prune(this.db.manager);
    return { codes, tokens, sessions };
  }
}
