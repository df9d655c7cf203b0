import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { Organizer } from './organizer.entity';
import { OrganizerQueries } from './organizer.queries';
import { OrganizerJson, toOrganizerJson } from './organizer.presenter';

/** Organizers are read-only through the API (compat §4.1); the CLI creates them. */
@Injectable()
export class OrganizersService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly queries: OrganizerQueries,
  ) {}

  /** Organizers the principal reaches (a team in them); ordering `name`, `slug` (default `slug`). */
  async list(
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<OrganizerJson>> {
    return this.queries.page(this.db, principal.organizerIds(), filters, page, (rows) =>
      rows.map(toOrganizerJson),
    );
  }

  /** Creates the organizer if missing (CLI bootstrap); returns it either way. */
  async ensure(slug: string, name: string): Promise<Organizer> {
    await this.queries.insertIfMissing(this.db, slug, name);
    return this.db.getRepository(Organizer).findOneByOrFail({ slug });
  }
}
