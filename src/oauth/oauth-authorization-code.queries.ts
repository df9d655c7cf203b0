import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OAuthAuthorizationCode } from './oauth-authorization-code.entity';

/**
 * The SQL of authorization codes (`oauth_authorization_code`; spec "Authentication" 4). Stateless; runs in the
 * caller's `em`.
 */
@Injectable()
export class OAuthAuthorizationCodeQueries {
  /** Marks code `id` used unless it already is (atomic by its WHERE, no lock held after); rows changed. */
  async consume(em: EntityManager, id: number): Promise<number> {
    const res = await em
      .getRepository(OAuthAuthorizationCode)
      .createQueryBuilder()
      .update()
      .set({ used: true })
      .where('id = :id AND NOT used', { id })
      .execute();
    return res.affected ?? 0;
  }

  /** Deletes codes that expired more than a day ago; rows deleted. */
  async prune(em: EntityManager): Promise<number> {
    const res = await em
      .getRepository(OAuthAuthorizationCode)
      .createQueryBuilder()
      .delete()
      .where(`expires < now() - interval '1 day'`)
      .execute();
    return res.affected ?? 0;
  }
}
