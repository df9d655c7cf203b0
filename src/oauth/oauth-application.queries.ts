import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OAuthApplication } from './oauth-application.entity';

/**
 * The SQL of OAuth applications (`oauth_application`; spec "Authentication" 3). Stateless; runs in the caller's
 * `em`.
 */
@Injectable()
export class OAuthApplicationQueries {
  /** Ids and names of the applications with these ids (`ids` non-empty). One statement, no lock. */
  namesOf(em: EntityManager, ids: number[]): Promise<Pick<OAuthApplication, 'id' | 'name'>[]> {
    return em
      .getRepository(OAuthApplication)
      .createQueryBuilder('a')
      .select(['a.id', 'a.name'])
      .where('a.id IN (:...ids)', { ids })
      .getMany();
  }
}
