import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import { ErrorCollector } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { AppConfig } from '../config/app-config';
import type { UpdateOrganizerDto } from './organizer.dto';
import { Organizer } from './organizer.entity';
import { OrganizerQueries } from './organizer.queries';
import { OrganizerJson, toOrganizerJson } from './organizer.presenter';
import { checkPlugins } from './plugins';
import { SalesChannelDirectory } from './sales-channels/sales-channel-directory.queries';

/**
 * Organizers (compat §4.1): the CLI creates them (with their built-in sales channels); the API lists, reads and
 * PATCHes them (only `plugins` is writable, as in pretix).
 */
@Injectable()
export class OrganizersService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly queries: OrganizerQueries,
    private readonly channels: SalesChannelDirectory,
    private readonly config: AppConfig,
  ) {}

  /** Organizers the principal reaches (a team in them); ordering `name`, `slug` (default `slug`). */
  async list(
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<OrganizerJson>> {
    return this.queries.page(this.db, principal.organizerIds(), filters, page, (rows) =>
      rows.map((o) => toOrganizerJson(o, this.config.siteUrl)),
    );
  }

  get(organizer: Organizer): OrganizerJson {
    return toOrganizerJson(organizer, this.config.siteUrl);
  }

  /**
   * `PATCH O/`: `name` and `slug` are ignored (read-only in pretix); `plugins` is checked as pretix checks it and
   * then changes nothing, since this service's plugins are always active (so nothing is logged either; pretix
   * logs `pretix.organizer.plugins.enabled|disabled` only for a real change).
   * @throws ValidationFailed `{"plugins": ["Unknown plugin: 'x'."]}` or the level refusal
   */
  update(organizer: Organizer, body: UpdateOrganizerDto): OrganizerJson {
    const errors = new ErrorCollector();
    if (body.plugins !== undefined) checkPlugins(body.plugins, 'organizer', errors);
    errors.throwIfAny();
    return this.get(organizer);
  }

  /** Creates the organizer if missing, and its built-in sales channels (CLI bootstrap); returns it either way. */
  async ensure(slug: string, name: string): Promise<Organizer> {
    return this.db.transaction(async (em) => {
      await this.queries.insertIfMissing(em, slug, name);
      const organizer = await em.getRepository(Organizer).findOneByOrFail({ slug });
      await this.channels.ensureBuiltIns(em, organizer.id);
      return organizer;
    });
  }
}
