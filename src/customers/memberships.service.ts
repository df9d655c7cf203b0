import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { MembershipTypeReads } from '../catalogue/membership-types/membership-type-reads';
import { ErrorCollector, invalidPk, NotFound } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { parseDateTime } from '../common/values/datetime';
import type { Organizer } from '../organizers/organizer.entity';
import { Customer } from './customer.entity';
import { CustomerQueries } from './customer.queries';
import { unknownCustomer } from './customer-reads.service';
import { recordCustomerAction } from './customer-log';
import type { CreateMembershipDto } from './membership.dto';
import { Membership } from './membership.entity';
import { MembershipJson, toMembershipJson } from './membership.presenter';

/**
 * Memberships of the organizer's customers (pretix `MembershipViewSet`): list, detail, create, update; no DELETE.
 * `customer` (identifier) and `membership_type` (id) must be the organizer's; on update `customer` and `testmode`
 * are kept whatever the body says. Audit on the customer: `pretix.customer.membership.created|changed`.
 */
@Injectable()
export class MembershipsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: CustomerQueries,
    private readonly types: MembershipTypeReads,
  ) {}

  /**
   * One page; filters `customer` (identifier, case-insensitive), `membership_type`, `testmode`. One statement.
   * @throws ValidationFailed for a malformed filter value
   */
  list(organizer: Organizer, filters: QueryFilters, page: PageRequest): Promise<Paginated<MembershipJson>> {
    return this.queries.membershipPage(this.db, organizer.id, filters, page, toMembershipJson);
  }

  /** @throws NotFound for an id that is not a membership of this organizer's customers */
  async get(organizer: Organizer, id: number): Promise<MembershipJson> {
    const m = await this.load(this.db, organizer, id, false);
    return toMembershipJson(m, m.customer!.identifier);
  }

  /**
   * Creates a membership; logs `pretix.customer.membership.created` on the customer.
   * @throws ValidationFailed (400) `{"customer": ["Object with identifier=X does not exist."]}`,
   *   `{"membership_type": ["Invalid pk \"N\" - object does not exist."]}`
   */
  async create(
    organizer: Organizer,
    principal: Principal,
    body: CreateMembershipDto,
  ): Promise<MembershipJson> {
    return this.db.transaction(async (em) => {
      const errors = new ErrorCollector();
      const customer = await em.findOne(Customer, {
        where: { organizerId: organizer.id, identifier: body.customer },
      });
      if (!customer) errors.add('customer', unknownCustomer(body.customer));
      await this.checkType(em, organizer, body.membership_type, errors);
      errors.throwIfAny();
      const m = em.create(Membership, {
        organizerId: organizer.id,
        customerId: customer!.id,
        testmode: body.testmode ?? false,
        canceled: false,
      });
      applyFields(m, body);
      await em.save(m);
      await recordCustomerAction(
        this.audit,
        em,
        principal,
        organizer,
        customer!,
        'pretix.customer.membership.created',
        {
          ...body,
          id: m.id,
        },
      );
      return toMembershipJson(m, customer!.identifier);
    });
  }

  /**
   * PUT (every field required by its DTO) or PATCH (the fields sent): `membership_type`, `date_start`,
   * `date_end`, `attendee_name_parts` change; `customer` and `testmode` are ignored (pretix). Logs
   * `pretix.customer.membership.changed` on the customer.
   * @throws NotFound for an id that is not a membership of this organizer's customers
   * @throws ValidationFailed (400) for a membership type of another organizer
   */
  async update(
    organizer: Organizer,
    id: number,
    principal: Principal,
    body: Partial<CreateMembershipDto>,
  ): Promise<MembershipJson> {
    return this.db.transaction(async (em) => {
      const m = await this.load(em, organizer, id, true);
      const errors = new ErrorCollector();
      if (body.membership_type !== undefined)
        await this.checkType(em, organizer, body.membership_type, errors);
      // pretix validates a sent customer (of the organizer) before ignoring it.
      if (body.customer !== undefined && body.customer !== m.customer!.identifier) {
        const exists = await em.exists(Customer, {
          where: { organizerId: organizer.id, identifier: body.customer },
        });
        if (!exists) errors.add('customer', unknownCustomer(body.customer));
      }
      errors.throwIfAny();
      applyFields(m, body);
      await em.save(m);
      await recordCustomerAction(
        this.audit,
        em,
        principal,
        organizer,
        m.customer!,
        'pretix.customer.membership.changed',
        {
          ...body,
          id: m.id,
        },
      );
      return toMembershipJson(m, m.customer!.identifier);
    });
  }

  /**
   * The membership of one of the organizer's customers with its customer, locked when `lock` is set.
   * @throws NotFound
   */
  private async load(
    em: EntityManager,
    organizer: Organizer,
    id: number,
    lock: boolean,
  ): Promise<Membership> {
    const m = await this.queries.membership(em, organizer.id, id, lock);
    if (!m) throw new NotFound();
    return m;
  }

  private async checkType(em: EntityManager, organizer: Organizer, typeId: number, errors: ErrorCollector) {
    if (!(await this.types.exists(em, organizer.id, typeId)))
      errors.add('membership_type', invalidPk(typeId));
  }
}

/** The changeable fields that were sent (`customer` and `testmode` are set on creation only). */
function applyFields(m: Membership, body: Partial<CreateMembershipDto>): void {
  if (body.membership_type !== undefined) m.membershipTypeId = body.membership_type;
  if (body.date_start !== undefined) m.dateStart = parseDateTime(body.date_start);
  if (body.date_end !== undefined) m.dateEnd = parseDateTime(body.date_end);
  if (body.attendee_name_parts !== undefined) m.attendeeNameParts = body.attendee_name_parts;
}
