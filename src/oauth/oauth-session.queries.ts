import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The SQL of the pages' login sessions (`oauth_session`; README "OAuth 2.0 applications"). Stateless; runs in the
 * caller's `em`.
 */
@Injectable()
export class OAuthSessionQueries {
  /** Deletes expired sessions; rows deleted. One statement, no lock. */
  async prune(em: EntityManager): Promise<number> {
    const [, deleted] = await em.query<[unknown, number]>('DELETE FROM oauth_session WHERE expire < now()');
    return deleted;
  }
}
