import { Inject, Injectable } from '@nestjs/common';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ResourceInUse } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { toI18n } from '../../common/values/i18n';
import type { Organizer } from '../../organizers/organizer.entity';
import { MEMBERSHIP_TYPE_USAGE, MembershipTypeUsage } from './membership-type-usage.port';
import type { CreateMembershipTypeDto } from './membership-type.dto';
import { MembershipType } from './membership-type.entity';
import { MembershipTypeJson, toMembershipTypeJson } from './membership-type.presenter';
import { MembershipTypeQueries } from './membership-type.queries';

type MembershipTypeInput = Complete<CreateMembershipTypeDto>;

/** Defaults of optional membership type fields (compat §3.6); PUT resets omitted ones to these. */
const MEMBERSHIP_TYPE_DEFAULTS: Omit<MembershipTypeInput, 'name'> = {
  transferable: false,
  allow_parallel_usage: false,
  max_usages: null,
};

/** Audit content type of membership types (pretix model name). */
const CONTENT_TYPE = 'membershiptype';

export const MEMBERSHIP_TYPE_IN_USE = 'Can only be deleted if unused.';

/**
 * Membership types of one organizer: list, detail, create, update, delete (compat §3.6, spec "Membership
 * type"). Every query is scoped by the organizer resolved by the permission guard; audit entries have no event.
 */
@Injectable()
export class MembershipTypesService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    @Inject(MEMBERSHIP_TYPE_USAGE) private readonly usage: MembershipTypeUsage,
    private readonly queries: MembershipTypeQueries,
  ) {}

  /** One page of the organizer's types; ordering `id` (the default). Two SQL statements whatever the page size. */
  async list(
    organizer: Organizer,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<MembershipTypeJson>> {
    return this.queries.page(this.db, organizer.id, filters, page, (rows) => rows.map(toMembershipTypeJson));
  }

  /** @throws NotFound for an id that is not a membership type of this organizer */
  async get(organizer: Organizer, id: number): Promise<MembershipTypeJson> {
    return toMembershipTypeJson(await this.load(this.db, organizer, id, false));
  }

  /** Creates a membership type; logs `pretix.membershiptype.created`. */
  async create(
    organizer: Organizer,
    principal: Principal,
    body: CreateMembershipTypeDto,
  ): Promise<MembershipTypeJson> {
    const input = mergeInput(body, { ...MEMBERSHIP_TYPE_DEFAULTS } as MembershipTypeInput);
    return this.db.transaction(async (em) => {
      const type = em.create(MembershipType, { organizerId: organizer.id });
      this.apply(type, input);
      await em.save(type);
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        eventId: null,
        contentType: CONTENT_TYPE,
        objectId: type.id,
        action: 'pretix.membershiptype.created',
        data: { ...body },
      });
      return toMembershipTypeJson(type);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`: only sent fields change). Logs
   * `pretix.membershiptype.changed` only when the wire object changed.
   * @throws NotFound for an id that is not a membership type of this organizer
   */
  async update(
    organizer: Organizer,
    id: number,
    principal: Principal,
    body: Partial<CreateMembershipTypeDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<MembershipTypeJson> {
    return this.db.transaction(async (em) => {
      const type = await this.load(em, organizer, id, true);
      const before = toMembershipTypeJson(type);
      const base: MembershipTypeInput =
        mode === 'patch' ? before : ({ ...MEMBERSHIP_TYPE_DEFAULTS } as MembershipTypeInput);
      this.apply(type, mergeInput(body, base));
      const after = toMembershipTypeJson(type);
      if (!isDeepStrictEqual(before, after)) {
        await em.save(type);
        await this.audit.record(em, principal, {
          organizerId: organizer.id,
          eventId: null,
          contentType: CONTENT_TYPE,
          objectId: type.id,
          action: 'pretix.membershiptype.changed',
          data: { ...body },
        });
      }
      return after;
    });
  }

  /**
   * Deletes an unused membership type; logs `pretix.membershiptype.deleted`.
   * @throws NotFound for an id that is not a membership type of this organizer
   * @throws ResourceInUse (403) when an item grants or requires it, a variation requires it, or memberships use it
   * (via the {@link MembershipTypeUsage} port)
   */
  async delete(organizer: Organizer, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const type = await this.load(em, organizer, id, true);
      // Items and variations can only reference types of their organizer; any reference blocks the delete.
      if (await this.queries.usedByCatalogue(em, type.id)) throw new ResourceInUse(MEMBERSHIP_TYPE_IN_USE);
      if (await this.usage.isUsed(em, type.id)) throw new ResourceInUse(MEMBERSHIP_TYPE_IN_USE);
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        eventId: null,
        contentType: CONTENT_TYPE,
        objectId: type.id,
        action: 'pretix.membershiptype.deleted',
        data: {},
      });
      await em.delete(MembershipType, { id: type.id, organizerId: organizer.id });
    });
  }

  private async load(
    em: EntityManager,
    organizer: Organizer,
    id: number,
    lock: boolean,
  ): Promise<MembershipType> {
    return findOrNotFound(em, MembershipType, { id, organizerId: organizer.id }, lock);
  }

  private apply(type: MembershipType, input: MembershipTypeInput): void {
    type.name = toI18n(input.name);
    type.transferable = input.transferable;
    type.allowParallelUsage = input.allow_parallel_usage;
    type.maxUsages = input.max_usages;
  }
}
