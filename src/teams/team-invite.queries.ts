import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { TeamInvite } from './team-invite.entity';

/** The SQL of team invites (spec "Team invite"; compat §3.1). Stateless; runs in the caller's `em`. */
@Injectable()
export class TeamInviteQueries {
  /** A page of the team's open invites, ordered by e-mail, then id. No lock. */
  page<T>(
    em: EntityManager,
    teamId: number,
    page: PageRequest,
    present: (rows: TeamInvite[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(TeamInvite)
      .createQueryBuilder('i')
      .where('i.team_id = :team', { team: teamId })
      .orderBy('i.email', 'ASC')
      .addOrderBy('i.id', 'ASC');
    return paginateRows(qb, page, present);
  }

  /** Whether the team has an invite for this e-mail address (case-insensitive). No lock. */
  invited(em: EntityManager, teamId: number, email: string): Promise<boolean> {
    return em
      .getRepository(TeamInvite)
      .createQueryBuilder('i')
      .where('i.team_id = :team AND lower(i.email) = lower(:email)', { team: teamId, email })
      .getExists();
  }
}
