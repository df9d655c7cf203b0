import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import { applyOrdering } from '../common/listing/ordering';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { paginateRows } from '../common/listing/page-query';
import { QueryFilters } from '../common/listing/query-filters';
import { Organizer } from './organizer.entity';
import { OrganizerJson, toOrganizerJson } from './organizer.presenter';

/** Organizers are read-only through the API (compat §4.1); the CLI creates them. */
@Injectable()
export class OrganizersService {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  /** Organizers the principal reaches (a team in them); ordering `name`, `slug` (default `slug`). */
  async list(
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<OrganizerJson>> {
    const qb = this.db
      .getRepository(Organizer)
      .createQueryBuilder('o')
      .where('o.id = ANY(:ids)', { ids: principal.organizerIds() });
    applyOrdering(qb, filters, { name: 'o.name', slug: 'o.slug' }, ['slug']);
    return paginateRows(qb, page, (rows) => rows.map(toOrganizerJson));
  }

  /** Creates the organizer if missing (CLI bootstrap); returns it either way. */
  async ensure(slug: string, name: string): Promise<Organizer> {
    const repo = this.db.getRepository(Organizer);
    await repo.createQueryBuilder().insert().values({ slug, name }).orIgnore().execute();
    return repo.findOneByOrFail({ slug });
  }
}
