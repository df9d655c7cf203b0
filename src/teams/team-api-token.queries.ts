import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { TeamApiToken } from './team-api-token.entity';

/** The SQL of team API tokens (spec "Team API token"; compat §3.1). Stateless; runs in the caller's `em`. */
@Injectable()
export class TeamApiTokenQueries {
  /** A page of the team's tokens, active and inactive, ordered by name, then id. No lock. */
  page<T>(
    em: EntityManager,
    teamId: number,
    page: PageRequest,
    present: (rows: TeamApiToken[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(TeamApiToken)
      .createQueryBuilder('k')
      .where('k.team_id = :team', { team: teamId })
      .orderBy('k.name', 'ASC')
      .addOrderBy('k.id', 'ASC');
    return paginateRows(qb, page, present);
  }
}
