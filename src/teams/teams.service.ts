import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { generateToken, hashToken } from '../auth/credentials.service';
import type { Organizer } from '../organizers/organizer.entity';
import { TeamApiToken } from './team-api-token.entity';
import { Team } from './team.entity';

export const ADMINISTRATORS = 'Administrators';

/** Teams of an organizer (spec "Team"; compat §3.1). */
@Injectable()
export class TeamsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The organizer's "Administrators" team with all events and all permissions, created when missing. */
  async ensureAdministrators(organizer: Organizer): Promise<Team> {
    return this.db.transaction(async (em) => {
      await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`bootstrap:${organizer.id}`]);
      const existing = await em.findOne(Team, {
        where: { organizerId: organizer.id, name: ADMINISTRATORS },
        order: { id: 'ASC' },
      });
      if (existing) {
        existing.allEvents = true;
        existing.allEventPermissions = true;
        existing.allOrganizerPermissions = true;
        return em.save(existing);
      }
      return em.save(
        em.create(Team, {
          organizerId: organizer.id,
          name: ADMINISTRATORS,
          allEvents: true,
          allEventPermissions: true,
          allOrganizerPermissions: true,
          limitEventPermissions: [],
          limitOrganizerPermissions: [],
        }),
      );
    });
  }

  /** Creates an active API token for a team and returns its secret (shown once; only its hash is stored). */
  async issueToken(team: Team, name: string): Promise<string> {
    const token = generateToken();
    await this.db
      .getRepository(TeamApiToken)
      .insert({ teamId: team.id, name, tokenHash: hashToken(token), active: true });
    return token;
  }
}
